import Testing

/// The YAML reader reads the shapes the official test data is written in,
/// typed as PyYAML types them, and names the line of what it cannot read.
@Suite(.timeLimit(.minutes(10))) struct FixtureYAMLTests {
    @Test("Mappings, items that open mappings, quotes, flow sequences and block scalars")
    func shapes() throws {
        let text = """
            ---
            expression: "{int}st\\\\ \\u00e9"
            text: 'it''s'
            expected_args: [null, 'x, y', 3]
            tokens:
            - type: TEXT
              start: 0
              nested:
                - 1.5
                -
                - -2
            exception: |-
              line one

                indented
            """
        let value = try FixtureYAML.parse(text)
        #expect(value["expression"] == .string("{int}st\\ é"))
        #expect(value["text"] == .string("it's"))
        #expect(value["expected_args"] == .array([.null, .string("x, y"), .int(3)]))
        #expect(value["tokens"] == .array([.object(["type": .string("TEXT"), "start": .int(0), "nested": .array([.double(1.5), .null, .int(-2)])])]))
        #expect(value["exception"] == .string("line one\n\n  indented"))
    }

    @Test("What it cannot read is an error with its line")
    func errors() {
        #expect(throws: FixtureYAML.Failure.self) { try FixtureYAML.parse("a: 'open\n") }
        #expect(throws: FixtureYAML.Failure.self) { try FixtureYAML.parse("a: 1\nnot a key\n") }
    }
}
