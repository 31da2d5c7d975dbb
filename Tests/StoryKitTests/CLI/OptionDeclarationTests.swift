import Foundation
import Testing
@testable import StoryKit
import StoryrunSteps

/// Each option is declared once (``OptionDeclaration``); the parser, the
/// usage text, the config file's keys and a worker's arguments all come
/// from that declaration, and agree.
@Suite(.timeLimit(.minutes(10))) struct OptionDeclarationTests {
    @Test("Every declared name parses, and the usage text shows every option that is not for storyrun's own use")
    func everyNameParsesAndIsShown() throws {
        let usage = Options.usage
        for declaration in Options.declarations where !declaration.names.isEmpty && declaration.names != ["--"] {
            for name in declaration.names {
                let value: [String] =
                    switch declaration.value {
                    case nil: []
                    case "FILE": ["out-\(name.dropFirst(2))"]
                    case "KEY=VALUE": ["k=v"]
                    case "I/N": ["1/2"]
                    case "ORDER": ["random:3"]
                    case "STYLE": ["expression"]
                    case "NAME" where name.hasSuffix("format") || name == "-f": ["progress"]
                    case "N", "S": ["2"]
                    default: ["x"]
                    }
                #expect(throws: Never.self, "\(name)") { try Options(arguments: [name] + value + ["a.stories"]) }
            }
            if !declaration.help.isEmpty {
                #expect(usage.contains(declaration.names.first { $0.hasPrefix("--") }!), "\(declaration.names)")
            }
        }
    }

    @Test("The config file's keys are the declarations' keys, and each key's arguments parse back to the option")
    func configKeys() throws {
        let declared = Set(Options.declarations.compactMap { $0.config?.key })
        #expect(Set(ConfigFile.keys.keys) == declared.union(["paths"]))
        for key in ["strict", "jobs", "junit", "tags", "format", "parameters", "in-process", "timings"] {
            #expect(ConfigFile.keys[key] != nil, "\(key)")
        }
        #expect(ConfigFile.keys["watch"] == nil && ConfigFile.keys["worker"] == nil)
    }

    @Test("A worker's arguments are the forwarded options, and parse back to the same values")
    func workerArgumentsRoundTrip() throws {
        let options = try Options(arguments: [
            "--strict", "--dry-run", "--retry", "3", "--step-timeout", "2.5", "-D", "k=v", "--snippets", "expression",
            "--jobs", "2", "--verbose", "a.stories",
        ])
        let worker = try Options(arguments: ["--worker"] + options.workerArguments)
        #expect(worker.isStrict && worker.isDryRun && worker.retries == 3 && worker.stepTimeout == 2.5)
        #expect(worker.parameters == ["k": "v"] && worker.snippetStyle == .expression)
        // What the worker does not need is not forwarded.
        #expect(!options.workerArguments.contains("--jobs") && !options.workerArguments.contains("--verbose"))
    }

    // Issue 28, "Smaller": the three command-line slips.

    @Test("-D alone says what to write: -D KEY=VALUE (not FILE)")
    func missingValueNamesItsKind() {
        for (arguments, help) in [(["-D"], "write -D KEY=VALUE"), (["--jobs"], "write --jobs N"), (["--tags"], "write --tags EXPR")] {
            do {
                _ = try Options(arguments: arguments)
                Issue.record("\(arguments) parsed")
            } catch {
                #expect(error.problem == "\(arguments[0]) needs a value")
                #expect(error.help == help)
            }
        }
    }

    @Test("--junit '' is a usage error before any story runs")
    func emptyReportPath() async {
        var lines: [String] = []
        let status = await StoryRun.run(
            arguments: [Golden.fixture("stories/good/basket.stories"), "--junit", ""], steps: StoryrunSteps.fixtures, clock: { 0 },
            output: { lines.append($0) })
        #expect(status == .inputError)
        #expect(lines.joined(separator: "\n").contains("--junit '' names no file"))
        #expect(!lines.contains { $0.hasPrefix("PASSED") || $0.hasPrefix("Stories:") }, "\(lines)")
    }

    @Test("--format given twice prints its report once")
    func formatTwice() async throws {
        let options = try Options(arguments: ["--format", "summary", "-f", "summary", "--format", "progress", "a.stories"])
        #expect(options.reports.map(\.format) == [.summary, .progress])
        var lines: [String] = []
        let status = await StoryRun.run(
            arguments: [Golden.fixture("stories/good/basket.stories"), "--format", "summary", "--format", "summary"],
            steps: StoryrunSteps.fixtures, clock: { 0 }, output: { lines.append($0) })
        #expect(status == .success)
        #expect(lines.joined(separator: "\n").components(separatedBy: "Stories:").count == 2, "\(lines)")
    }
}
