/// Vicinity's version, as `vicinity --version`, `HELLO` and `INFO` report it.
public enum ProductVersion {
    /// Semantic version of this build.
    public static let current = "0.5.0"
}
