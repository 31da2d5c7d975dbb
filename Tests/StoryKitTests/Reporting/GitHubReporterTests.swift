import Testing
@testable import StoryKit

/// GitHub reads workflow commands only when their values are escaped.
@Suite(.timeLimit(.minutes(3))) struct GitHubReporterTests {
    @Test("Messages escape %, CR and LF; properties also escape : and ,", arguments: [
        ("100% done", "100%25 done", "100%25 done"),
        ("a\nb\r\nc", "a%0Ab%0D%0Ac", "a%0Ab%0D%0Ac"),
        ("key: a, b", "key: a, b", "key%3A a%2C b"),
        ("%0A", "%250A", "%250A"),
        ("Zoë 🍎", "Zoë 🍎", "Zoë 🍎"),
    ])
    func escapes(text: String, data: String, property: String) {
        #expect(GitHubReporter.escapeData(text) == data)
        #expect(GitHubReporter.escapeProperty(text) == property)
    }

    @Test("A failing step becomes one ::error with its place and story")
    func command() {
        let location = SourceLocation(file: "a,b:c.stories", line: 7, column: 1)
        #expect(GitHubReporter.command("error", at: location, title: "Pay: 1, 2", message: "x\ny")
            == "::error file=a%2Cb%3Ac.stories,line=7,col=1,title=Pay%3A 1%2C 2::x%0Ay")
    }

    @Test("The terminal formats include progress, pretty and github; the file reports junit, messages and rerun")
    func formats() throws {
        let options = try Options(arguments: ["--format", "progress", "--junit", "j.xml", "--messages", "m.ndjson", "--rerun", "r.txt", "x"])
        #expect(options.reports.map(\.format) == [.progress, .junit, .messages, .rerun])
        #expect(try Options(arguments: ["-f", "github", "x"]).reports.map(\.format) == [.github])
        #expect(throws: Diagnostic.self) { try Options(arguments: ["--format", "junit", "x"]) }
    }
}
