import Foundation
import Testing

@testable import StoryKit
@testable import StoryKitProcess

/// `{name}` in a command line: filled in after the line is split, one
/// value one argument, never expanded again; in a shell's `-c` script the
/// shell reads the value as data.
@Suite(.timeLimit(.minutes(10))) struct PlaceholderCommandTests {
    /// Runs command lines with a store holding `values`, in one story's
    /// directory; returns each command's standard output and whether a
    /// file named PWNED appeared in the directory.
    func run(_ lines: [String], values: [String: String]) async throws -> (outputs: [String], isPwned: Bool) {
        let store = StoryStore()
        for (name, value) in values { store[name] = value }
        let steps = ProcessSteps()
        var outputs: [String] = []
        try await StoryStore.$currentStore.withValue(store) {
            for line in lines {
                try await steps.run(line, input: nil)
                outputs.append(try steps.lastResult().stdout)
            }
        }
        let isPwned = FileManager.default.fileExists(atPath: steps.workingDirectory + "/PWNED")
        await steps.tearDown()
        return (outputs, isPwned)
    }

    /// Before, the value was put into the line first: four arguments, and
    /// `$HOME` replaced by the home folder.
    @Test("A stored value with spaces, quotes and $ is one argument, as it is")
    func oneArgument() async throws {
        let value = "x --flag $HOME 'q'"
        let result = try await run(["printf '<%s>' {args}", "printf '<%s>' \"a {args} b\" '{args}'"], values: ["args": value])
        #expect(result.outputs == ["<\(value)>", "<a \(value) b><\(value)>"])
    }

    /// Before, `42; touch PWNED` ran `touch` through the script.
    @Test("A value in an sh -c script is data to the shell, in double quotes, single quotes or none", arguments: [
        #"sh -c "echo order {order}""#,
        #"sh -c 'echo order {order}'"#,
        #"sh -c 'echo "order {order}"'"#,
        #"sh -ec 'echo order '{order}"#,
        #"bash -o pipefail -c "echo order {order}""#,
    ])
    func shellScript(line: String) async throws {
        let result = try await run([line], values: ["order": "42; touch PWNED $(touch PWNED) `touch PWNED` 'q\" \\"])
        #expect(!result.isPwned)
        #expect(result.outputs == ["order 42; touch PWNED $(touch PWNED) `touch PWNED` 'q\" \\\n"])
    }

    @Test("Words around the values still split, $NAME still expands, and a name nothing is stored under stays as written")
    func splitting() async throws {
        let result = try await run(["printf '<%s>' {a}{b} $GREETING {missing} '{\"json\": 1}'"], values: ["a": "1 2", "b": "$3"])
        #expect(result.outputs == ["<1 2$3><><{missing}><{\"json\": 1}>"])
    }

    @Test("A shell's script is the first word after options that hold c")
    func scriptIndex() {
        #expect(CommandArguments.scriptIndex(["sh", "-c", "x"]) == 2)
        #expect(CommandArguments.scriptIndex(["/bin/bash", "-o", "pipefail", "-ec", "x", "name"]) == 4)
        #expect(CommandArguments.scriptIndex(["sh", "script.sh", "x"]) == nil)
        #expect(CommandArguments.scriptIndex(["printf", "-c", "x"]) == nil)
    }
}
