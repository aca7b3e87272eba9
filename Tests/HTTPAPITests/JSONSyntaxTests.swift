import Testing

@testable import HTTPAPI

/// `JSONSyntax`: where a body stops being JSON, as the 400 for it says.
@Suite struct JSONSyntaxTests {
    @Test(arguments: [
        #"{"lat":41,"lon":29}"#, "[]", "  {}  ", #""text""#, "-0.5e+3", "true", "null", #"{"a":[1,{"b":"\u00e9\n"}]}"#,
    ])
    func validDocumentsHaveNoFault(text: String) {
        #expect(JSONSyntax.firstFault(in: Array(text.utf8)) == nil)
    }

    @Test(arguments: [
        ("{\n \"visibility\": }", "unexpected '}', expected a value at line 2, column 16 (byte 17)"),
        (#"{"lat": 41"#, "unexpected end of data, expected ',' or '}' at line 1, column 11 (byte 10)"),
        ("", "unexpected end of data, expected a value at line 1, column 1 (byte 0)"),
        (#"{"a":1,}"#, "unexpected '}', expected a member name in quotes at line 1, column 8 (byte 7)"),
        (#"{'a':1}"#, "unexpected byte 0x27, expected a member name in quotes at line 1, column 2 (byte 1)"),
        ("[01]", "unexpected '1', expected ',' or ']' at line 1, column 3 (byte 2)"),
        ("[1.]", "unexpected ']', expected a digit at line 1, column 4 (byte 3)"),
        ("{} {}", "unexpected '{', expected the end of the data at line 1, column 4 (byte 3)"),
        ("[nul]", "unexpected ']', expected 'null' at line 1, column 5 (byte 4)"),
        (
            "[\"a\tb\"]",
            "unexpected byte 0x9, expected a character other than a control character (escape it) "
                + "at line 1, column 4 (byte 3)"
        ),
        (#"["\x"]"#, #"unexpected 'x', expected one of \" \\ \/ \b \f \n \r \t \u at line 1, column 4 (byte 3)"#),
    ])
    func faultsSayWhereAndWhat(text: String, message: String) {
        #expect(JSONSyntax.firstFault(in: Array(text.utf8))?.description == message)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(JSONSyntax.firstFault(in: Array(deep.utf8))?.offset == JSONSyntax.maximumDepth)
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(JSONSyntax.firstFault(in: Array(fine.utf8)) == nil)
    }
}
