# Sourced by the benchmark scripts: `release_build PRODUCT…` builds each product of the release
# configuration (SwiftPM's --product takes one product a call) so that a benchmark never runs a
# binary older than the sources; it is quick when nothing changed. Build output goes to stderr.
release_build() {
    local product
    for product in "$@"; do
        swift build -c release --product "$product" >&2
    done
}
