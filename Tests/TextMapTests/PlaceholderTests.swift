import Testing

@testable import TextMap

@Suite struct PlaceholderTests {
    @Test func errorNamesTheSize() {
        #expect(TextMapError.invalidSize(width: 3, height: 2).description.contains("3 × 2"))
    }
}
