import Foundation
import Testing
@testable import StoryKit
import StoryrunSteps

/// The server in process: messages in, the messages it sends captured.
@Suite(.timeLimit(.minutes(10))) struct LanguageServerTests {
    final class Sent: @unchecked Sendable {
        var messages: [JSONValue] = []
    }

    static func server(_ steps: [any StepDefinitions.Type]) -> (LanguageServer, Sent) {
        let (registry, _) = StepRegistryTests.registry(steps)
        let sent = Sent()
        return (LanguageServer(registry: registry, root: "/nonexistent-storyrun-root", send: { sent.messages.append($0) }), sent)
    }

    static func open(_ server: inout LanguageServer, _ sent: Sent, _ name: String, _ text: String) -> [JSONValue] {
        _ = server.handle(["method": "textDocument/didOpen", "params": ["textDocument": ["uri": "file:///w/\(name)", "version": 1, "text": .string(text)]]])
        return sent.messages.last?["params"]?["diagnostics"]?.arrayValue ?? []
    }

    static func lines(_ diagnostics: [JSONValue], code: String) -> [Int] {
        diagnostics.filter { $0["code"]?.stringValue == code }.compactMap { $0["range"]?["start"]?["line"]?.integer }
    }

    @Test("Every Examples row of an outline is converted as a run would: 300 is not an Int8")
    func outlineRows() {
        var (server, sent) = Self.server([ExpressionSteps.self])
        let diagnostics = Self.open(&server, sent, "boxes.feature", """
            Feature: Boxes
              Scenario Outline: Boxes
                Given I have <n> boxes
                Examples:
                  | n   |
                  | 3   |
                  | 300 |
            """)
        #expect(Self.lines(diagnostics, code: "conversion") == [2, 6])
        let message = diagnostics.first { $0["code"]?.stringValue == "conversion" }?["message"]?.stringValue ?? ""
        #expect(message.contains("argument 1 \"300\" is not an Int8"))
        #expect(message.contains("Examples row at line 7"))
    }

    @Test("Undefined and ambiguous steps are warnings; a story file without problems has none")
    func undefinedAndAmbiguous() {
        var (server, sent) = Self.server(StoryrunSteps.fixtures)
        let diagnostics = Self.open(&server, sent, "a.stories", """
            Story: S
              Given an empty basket
              When I add 2 pears to the basket in a hurry
              Then nothing is defined here
            """)
        #expect(Self.lines(diagnostics, code: "ambiguous") == [2])
        #expect(Self.lines(diagnostics, code: "undefined") == [3])
        #expect(diagnostics.allSatisfy { $0["severity"]?.integer == 2 })
        #expect(Self.open(&server, sent, "b.stories", "Story: S\n  Given an empty basket\n").isEmpty)
    }

    @Test("Shutdown, then exit, ends the server with status 0; exit without shutdown with 1")
    func lifecycle() {
        var (server, sent) = Self.server([])
        #expect(server.handle(["id": 1, "method": "shutdown"]) == nil)
        #expect(sent.messages.last?["id"]?.integer == 1)
        #expect(server.handle(["method": "exit"]) == .success)
        var (other, _) = Self.server([])
        #expect(other.handle(["method": "exit"]) == .storyFailed)
    }
}
