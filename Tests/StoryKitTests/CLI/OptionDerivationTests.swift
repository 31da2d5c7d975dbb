import Foundation
import Testing
@testable import StoryKit

/// The parser, the usage text, the config file's keys and a worker's
/// arguments are derived from one declaration per option
/// (``Options/declarations``): checked here for every declaration at once,
/// so that an option added another way (a property parsed by hand, a usage
/// line written by hand, a setting a worker needs but is not given) fails.
@Suite(.timeLimit(.minutes(10))) struct OptionDerivationTests {
    /// A value each declaration accepts, by the name of its value.
    static func example(_ declaration: OptionDeclaration) -> [String] {
        let name = declaration.names[0]
        switch declaration.value {
        case nil: return []
        case "FILE", "DIR": return ["out-\(name.dropFirst(2))"]
        case "KEY=VALUE": return ["k=v"]
        case "I/N": return ["1/2"]
        case "ORDER": return ["random:3"]
        case "STYLE": return ["expression"]
        case "NAME" where name == "--format": return ["progress"]
        case "N": return ["2"]
        case "S": return ["2.5"]
        default: return ["x"]
        }
    }

    /// The declarations a user writes (not the `PATH:LINE` notes, not `--`).
    static var options: [OptionDeclaration] {
        Options.declarations.filter { !$0.names.isEmpty && $0.names != ["--"] }
    }

    /// What a worker runs by: its runner's settings and the parameters.
    /// Fail-fast is the parent's to decide (a worker is told to stop).
    static func workerView(_ options: Options) -> String {
        var configuration = options.runnerConfiguration
        configuration.isFailFast = false
        return "\(configuration) \(options.parameters.sorted { $0.key < $1.key })"
    }

    @Test("Every option a worker runs by is forwarded, and parses back in the worker to the same settings")
    func everyOptionRoundTripsThroughAWorker() throws {
        let plain = Self.workerView(try Options(arguments: ["a.stories"]))
        for declaration in Self.options {
            let name = declaration.names[0]
            let options = try Options(arguments: [name] + Self.example(declaration) + ["a.stories"])
            let worker = try Options(arguments: ["--worker"] + options.workerArguments)
            #expect(worker.command == .worker, "\(name)")
            #expect(Self.workerView(worker) == Self.workerView(options), "\(name): the worker runs by other settings than its parent")
            if Self.workerView(options) != plain {
                #expect(declaration.forward != nil, "\(name) changes how stories run, but a worker is not given it")
            }
        }
    }

    @Test("Every property of Options is set by a declared option, or is what the parser works out")
    func everyPropertyIsDeclared() throws {
        // Set by the command word, paths, @FILE and the environment, not by an option.
        let notOptions: Set<String> = ["command", "paths", "emptyRerunFile", "rerunFiles", "rerunEntries", "shardSource"]
        let plain = Options()
        var declared: Set<String> = []
        for declaration in Self.options {
            var options = plain
            var parsing = Options.Parsing(options: options, remaining: [], overridesEarlier: false)
            try declaration.apply(&parsing, Self.example(declaration).first ?? "")
            options = parsing.options
            for (before, after) in zip(Mirror(reflecting: plain).children, Mirror(reflecting: options).children)
            where "\(before.value)" != "\(after.value)" {
                declared.insert(before.label!)
            }
        }
        let properties = Set(Mirror(reflecting: plain).children.compactMap(\.label))
        #expect(properties.subtracting(notOptions).subtracting(declared).isEmpty, "set by no declared option")
        #expect(declared.isDisjoint(with: notOptions.subtracting(["command"])))
    }

    @Test("The usage text shows each option once, and every option it shows is declared")
    func usageShowsEachOptionOnce() throws {
        let usage = Options.usage
        let section = try #require(usage.components(separatedBy: "\nOPTIONS:\n").last?.components(separatedBy: "\nEXIT STATUS:").first)
        var shown: [String] = []
        for line in section.split(separator: "\n") where line.hasPrefix("  -") {
            // The first column: the names, then the value or the help.
            for word in line.split(separator: " ").prefix(while: { $0.hasPrefix("-") }) {
                shown.append(String(word.hasSuffix(",") ? word.dropLast() : word))
            }
        }
        let declared = Self.options.filter { !$0.help.isEmpty }.flatMap(\.names)
        #expect(shown.sorted() == declared.sorted())
        #expect(Set(shown).count == shown.count, "an option is shown twice")
        // The hidden ones are storyrun's own.
        #expect(Set(Self.options.filter(\.help.isEmpty).flatMap(\.names)) == ["--check", "--worker", "--isolate"])
    }

    @Test("Every config key gives the options its command-line option gives")
    func everyConfigKeyParsesAsItsOption() throws {
        let empty = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: empty) }
        for declaration in Self.options {
            guard let (key, kind) = declaration.config else { continue }
            let value = Self.example(declaration).first ?? ""
            let json: String
            switch kind {
            case .flag: json = "true"
            case .value: json = Double(value) != nil ? value : "\"\(value)\""
            case .values: json = "[\"\(value)\"]"
            case .parameters: json = "{\"k\": \"v\"}"
            case .paths: json = "[\"\(value)\"]"
            }
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try "{\"\(key)\": \(json)}".write(toFile: folder + "/storyrun.json", atomically: true, encoding: .utf8)
            var fromConfig = try Options.load(arguments: ["a.stories"], directory: folder, environment: [:])
            let fromCommandLine = try Options.load(
                arguments: [declaration.names[0]] + Self.example(declaration) + ["a.stories"], directory: empty, environment: [:])
            #expect(fromConfig.configPath != nil)
            fromConfig.configPath = nil
            #expect(fromConfig == fromCommandLine, "\"\(key)\": \(json)")
        }
        #expect(ConfigFile.keys.count == Self.options.filter { $0.config != nil }.count + 1)
    }

    @Test("An unknown option names the nearest declared one")
    func unknownOptionNamesTheNearest() {
        for name in Self.options.filter({ !$0.help.isEmpty }).flatMap(\.names) where name.hasPrefix("--") && name.count >= 6 {
            let typo = String(name.dropLast()) + "x"
            do {
                _ = try Options(arguments: [typo, "a.stories"])
                Issue.record("\(typo) parsed")
            } catch {
                #expect(error.problem == "unknown option \(typo)")
                #expect(error.help?.hasPrefix("did you mean \(name)? ") == true, "\(typo): \(error.help ?? "")")
            }
        }
    }

    @Test("The usage text's head is the declared commands, each once, and each word gives its command")
    func usageHeadIsTheCommands() throws {
        let head = Options.usage.components(separatedBy: "\n\n")[0].split(separator: "\n").dropFirst().map(String.init)
        #expect(head == Options.commands.map(\.usageLine))
        #expect(Options.usage.hasPrefix("USAGE: storyrun [options] PATH...\n       storyrun check PATH...             (or --check)"))
        let words = Options.commands.flatMap(\.names)
        #expect(words == ["check", "lint", "explain", "match", "merge", "definitions", "lsp"])
        let given: [String: Options.Command] = [
            "check": .check, "lint": .check, "explain": .explain, "match": .match(.regex, pattern: "a", text: "a"), "merge": .merge(["x.ndjson"]),
            "definitions": .definitions(json: false), "lsp": .lsp,
        ]
        for word in words {
            let rest = word == "match" ? ["--regex", "a", "a"] : ["x.ndjson"]
            var options = Options()
            if word == "definitions" {
                _ = try options.parseCommand([word])
            } else {
                _ = try options.parseCommand([word] + rest)
            }
            #expect(options.command == given[word], "\(word)")
        }
    }

    @Test("merge reads its options as a run does: a near name is suggested, and an option is no value")
    func mergeOptions() {
        for (arguments, problem, help) in [
            (["--strikt", "x.ndjson"], "unknown option --strikt for merge", "did you mean --strict? see `storyrun merge --help`"),
            (["--html", "--strict", "x.ndjson"], "--html needs a value", "write --html FILE"),
        ] {
            do {
                _ = try MergeCommand.parse(arguments)
                Issue.record("\(arguments) parsed")
            } catch {
                #expect(error.problem == problem)
                #expect(error.help == help)
            }
        }
    }

    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "storyrun-derivation-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
