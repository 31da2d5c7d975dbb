import Foundation
import Testing
@testable import StoryKit

/// `storyrun lsp` given hostile bytes: a bad header is answered with an
/// error or ends the server cleanly, never a trap or a hang.
@Suite(.timeLimit(.minutes(10))) struct LSPConnectionTests {
    /// A message framed as LSP frames it.
    static func frame(_ json: String) -> String {
        "Content-Length: \(json.utf8.count)\r\n\r\n" + json
    }

    static let shutdownAndExit = frame(#"{"jsonrpc":"2.0","id":99,"method":"shutdown"}"#) + frame(#"{"jsonrpc":"2.0","method":"exit"}"#)

    /// Runs `storyrun lsp` with `input` on its standard input.
    static func serve(_ input: String) async throws -> Binary.Outcome {
        let folder = try Binary.temporaryFolder("lsp-connection")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(input.utf8).write(to: URL(fileURLWithPath: folder + "/input"))
        let binary = try #require(Binary.path, "build storyrun first: swift build")
        return try await Binary.run(["-c", #"exec "$0" lsp < input"#, binary], in: folder, executable: "/bin/sh", timeout: 30)
    }

    /// Before, `Content-Length: -5` trapped (`LSPConnection.swift:46`), and
    /// one past `Int.max` minus the header overflowed.
    @Test("A header whose length is negative, not a number or missing is answered with a parse error and skipped", arguments: [
        "Content-Length: -5\r\n\r\n", "Content-Length: 12x\r\n\r\n", "Content-Type: text\r\n\r\n", "Content-Length: \r\n\r\n",
    ])
    func badLength(header: String) async throws {
        let outcome = try await Self.serve(header + Self.shutdownAndExit)
        #expect(!outcome.isSignaled && outcome.status == 0, "\(outcome.status) \(outcome.errorOutput)")
        #expect(outcome.output.contains(#""code":-32700"#), "\(outcome.output)")
        #expect(outcome.output.contains(#""id":99"#), "\(outcome.output)")
    }

    @Test("A length beyond what a client sends, or a header that never ends, stops the server with status 2 and says why", arguments: [
        "Content-Length: 9223372036854775807\r\n\r\n{}", "Content-Length: 99999999999999999999999\r\n\r\n{}",
        "Content-Length: 300000000\r\n\r\n{}", String(repeating: "X-Junk: 1\r\n", count: 10_000),
    ])
    func tooLarge(input: String) async throws {
        let outcome = try await Self.serve(input + Self.shutdownAndExit)
        #expect(!outcome.isSignaled && !outcome.isTimedOut && outcome.status == 2, "\(outcome.status) \(outcome.errorOutput)")
        #expect(outcome.output.contains(#""code":-32700"#), "\(outcome.output)")
        #expect(outcome.errorOutput.contains("storyrun lsp: "), "\(outcome.errorOutput)")
    }

    @Test("A body that is not JSON is answered with a parse error at its line and column; the next message is served")
    func notJSON() async throws {
        let outcome = try await Self.serve(Self.frame("{nope") + Self.frame("[1]") + Self.shutdownAndExit)
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(outcome.output.contains(#""code":-32700"#) && outcome.output.contains(#""id":99"#), "\(outcome.output)")
        #expect(outcome.output.contains("a message is not a JSON object (1:2: a key in double quotes should be here)"), "\(outcome.output)")
        #expect(outcome.output.contains(#""message":"storyrun lsp: a message is not a JSON object"}"#), "\(outcome.output)")
    }

    @Test("Every message written is one JSON-RPC 2.0 object that names its version first")
    func framing() async throws {
        let outcome = try await Self.serve(Self.frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#) + Self.shutdownAndExit)
        let bodies = outcome.output.components(separatedBy: "Content-Length: ").dropFirst()
        #expect(bodies.count == 2, "\(outcome.output)")
        for body in bodies {
            let parts = body.components(separatedBy: "\r\n\r\n")
            #expect(Int(parts[0]) == parts[1].utf8.count, "\(body)")
            #expect(parts[1].hasPrefix(#"{"jsonrpc":"2.0","#), "\(body)")
            let message = try JSONValue(parsing: parts[1])
            #expect(message["id"]?.intValue != nil)
        }
        #expect(outcome.output.contains(#""serverInfo":{"name":"storyrun""#), "\(outcome.output)")
    }

    /// Before, a completion at line -1 read the line before the first (a
    /// trap), as did a negative column.
    @Test("A request at a negative line or column, or past the text, gets an empty answer", arguments: [
        (-1, 0), (0, -3), (5, 2), (Int.max, 0), (1, Int.max),
    ])
    func positions(line: Int, character: Int) async throws {
        let open = #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/a.stories","languageId":"stories","version":1,"text":"Story: S\n  Given x\n"}}}"#
        var input = Self.frame(open)
        for method in ["textDocument/completion", "textDocument/hover", "textDocument/definition", "textDocument/references"] {
            input += Self.frame(
                #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":{"textDocument":{"uri":"file:///w/a.stories"},"position":{"line":\#(line),"character":\#(character)},"context":{"includeDeclaration":true}}}"#)
        }
        let outcome = try await Self.serve(input + Self.shutdownAndExit)
        #expect(!outcome.isSignaled && outcome.status == 0, "\(outcome.status) \(outcome.errorOutput)")
        #expect(outcome.output.contains(#""id":99"#), "\(outcome.output)")
    }
}
