import Foundation
import Testing
@testable import StoryKit
import StoryrunSteps

@Suite(.timeLimit(.minutes(10))) struct ConfigFileTests {
    /// Writes a config file in a new scratch folder and returns the folder.
    static func project(_ json: String) -> String {
        let folder = Scratch.folder("config")
        FileManager.default.createFile(atPath: folder + "/storyrun.json", contents: Data(json.utf8))
        return folder
    }

    static func load(_ arguments: [String], json: String, environment: [String: String] = [:]) throws(Diagnostic) -> Options {
        let folder = project(json)
        return try Options.load(arguments: arguments + ["--config", folder + "/storyrun.json"], directory: folder, environment: environment)
    }

    @Test("JSON values keep the line and column of each key", arguments: [
        ("{\"a\": 1}", 1, 2),
        ("{\n  \"a\": [true, null]\n}", 2, 3),
        ("{\"x\": \"é\\u00e9\", \n\n    \"a\": {}}", 3, 5),
    ])
    func keyLines(json: String, line: Int, column: Int) throws {
        var places = JSONPlaces()
        let root = try JSONValue(parsing: json, places: &places)
        guard let position = root.objectMembers?.firstIndex(where: { $0.0 == "a" }) else {
            Issue.record("no key a in \(json)")
            return
        }
        #expect(places.key([position]).line == line)
        #expect(places.key([position]).column == column)
    }

    @Test("Text that is not JSON is an error at its line and column", arguments: [
        ("{\"a\": 1,}", 1, 9),
        ("{\n\"a\" 1}", 2, 5),
        ("{\"a\": tru}", 1, 7),
        ("{\"a\": \"open\n\"}", 1, 12),
        ("[1, 2", 1, 6),
        ("{} {}", 1, 4),
    ])
    func syntaxErrors(json: String, line: Int, column: Int) {
        var places = JSONPlaces()
        #expect(throws: JSONValue.SyntaxError.self) { try JSONValue(parsing: json, places: &places) }
        do {
            _ = try JSONValue(parsing: json, places: &places)
        } catch {
            #expect(error.line == line && error.column == column, "\(error)")
        }
    }

    @Test("Strings decode escapes and surrogate pairs")
    func strings() throws {
        var places = JSONPlaces()
        let root = try JSONValue(parsing: #"["a\"b\\c\n", "\ud83d\ude00", "\u00e9"]"#, places: &places)
        #expect(root == .array([.string("a\"b\\c\n"), .string("😀"), .string("é")]))
        #expect([0, 1, 2].map { places.value([$0]).column } == [2, 15, 31])
        #expect([0, 1, 2].allSatisfy { places.value([$0]).line == 1 })
    }

    @Test("Numbers and true/false in a config file reach the options as they were written")
    func numbersAsWritten() throws {
        let json = #"{"jobs": 2, "parameters": {"ratio": 1.50, "account": 12345678901234567890, "scale": 1e3, "on": true, "n": -0}}"#
        let options = try Self.load(["x.stories"], json: json)
        #expect(options.jobs == 2)
        #expect(options.parameters == ["ratio": "1.50", "account": "12345678901234567890", "scale": "1e3", "on": "true", "n": "-0"])
    }

    @Test("Defaults, then profiles in order, then the command line, which wins")
    func layers() throws {
        let json = """
            {
              "paths": ["a.stories"],
              "tags": "@smoke",
              "strict": true,
              "junit": "default.xml",
              "format": "progress",
              "parameters": {"base-url": "http://dev", "retries": 3},
              "profiles": {
                "ci": {"tags": "not @wip", "jobs": 4, "parameters": {"base-url": "https://ci"}},
                "relaxed": {"strict": false}
              }
            }
            """
        let defaults = try Self.load([], json: json)
        #expect(defaults.paths == ["a.stories"])
        #expect(defaults.tagExpressions == ["@smoke"])
        #expect(defaults.isStrict)
        #expect(defaults.parameters == ["base-url": "http://dev", "retries": "3"])
        #expect(defaults.reports.map(\.format) == [.junit, .progress])

        let ci = try Self.load(["--profile", "ci", "--profile", "relaxed"], json: json)
        #expect(ci.tagExpressions == ["not @wip"])
        #expect(ci.jobs == 4)
        #expect(!ci.isStrict)
        #expect(ci.parameters == ["base-url": "https://ci", "retries": "3"])

        let commandLine = try Self.load(
            ["--profile", "ci", "--tags", "@wip", "-D", "retries=5", "--junit", "mine.xml", "-f", "pretty", "b.stories"], json: json)
        #expect(commandLine.tagExpressions == ["@wip"])
        #expect(commandLine.paths == ["b.stories"])
        #expect(commandLine.parameters == ["base-url": "https://ci", "retries": "5"])
        #expect(commandLine.reports == [ReportRequest(format: .junit, path: "mine.xml"), ReportRequest(format: .pretty)])
    }

    @Test("Config problems name file:line:column and the nearest key", arguments: [
        ("{\n  \"strikt\": true\n}", "2:3", "unknown key \"strikt\"", "did you mean \"strict\"?"),
        ("{\"profiles\": {\"ci\": {\"tagz\": \"x\"}}}", "1:22", "unknown key \"tagz\" in the profile \"ci\"", "did you mean \"tags\"?"),
        ("{\n \"jobs\": true\n}", "2:10", "\"jobs\" is a string or a number, not true or false", "write \"jobs\""),
        ("{\n \"strict\": \"yes\"\n}", "2:12", "\"strict\" is true or false, not a string", "write \"strict\": true"),
        ("{\n \"retry\": 500\n}", "2:2", "\"retry\": --retry 500 is not a number of retries", "write --retry 2"),
        ("{\"parameters\": {\"a\": [1]}}", "1:22", "the parameter \"a\" is a list", "write \"a\""),
        ("[1]", "1:1", "a config file is a JSON object, not a list", "{\"paths\""),
        ("{\"paths\": [\"a\",]}", "1:16", "the config file is not JSON: JSON allows no comma before the ]", "one JSON object"),
        ("{\"jobs\": 02}", "1:10", "the config file is not JSON: 02 is not a JSON number (JSON writes no leading zero", "one JSON object"),
        ("{\n \"parameters\": {\"huge\": 1e400}}", "2:25", "the config file is not JSON: 1e400 is too large a number", "one JSON object"),
    ])
    func problems(json: String, place: String, problem: String, help: String) {
        do {
            _ = try Self.load(["x.stories"], json: json)
            Issue.record("accepted \(json)")
        } catch {
            let text = error.rendered()
            #expect(text.contains("storyrun.json:\(place): error: \(problem)"), "\(text)")
            #expect(text.contains(help), "\(text)")
        }
    }

    @Test("An unknown profile suggests the nearest; --profile without a config file says so")
    func profiles() {
        #expect(throws: Diagnostic.self) { try Self.load(["--profile", "cj"], json: "{\"profiles\": {\"ci\": {}}}") }
        do {
            _ = try Self.load(["--profile", "cj"], json: "{\"profiles\": {\"ci\": {}}}")
        } catch {
            #expect(error.problem.contains("has no profile \"cj\""))
            #expect(error.help?.contains("did you mean \"ci\"?") == true)
        }
        let empty = Scratch.folder("no-config")
        #expect(throws: Diagnostic.self) {
            try Options.load(arguments: ["--profile", "ci", "x.stories"], directory: empty, environment: [:])
        }
    }

    @Test("storyrun.json is read from the folder; other commands and workers ignore it")
    func discovery() throws {
        let folder = Self.project("{\"paths\": [\"a.stories\"], \"strict\": true}")
        let run = try Options.load(arguments: [], directory: folder, environment: [:])
        #expect(run.paths == ["a.stories"] && run.isStrict)
        let worker = try Options.load(arguments: ["--worker"], directory: folder, environment: [:])
        #expect(!worker.isStrict)
        let explain = try Options.load(arguments: ["explain", "Given x"], directory: folder, environment: [:])
        #expect(explain.paths == ["Given x"])
    }

    @Test("GitLab's CI_NODE_INDEX and CI_NODE_TOTAL fill --shard when it is not given")
    func gitLab() throws {
        let folder = Scratch.folder("gitlab")
        let gitLab = ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"]
        #expect(try Options.load(arguments: ["x"], directory: folder, environment: gitLab).shard == Shard(index: 2, count: 3))
        #expect(try Options.load(arguments: ["--shard", "1/2", "x"], directory: folder, environment: gitLab).shard == Shard(index: 1, count: 2))
        #expect(try Options.load(arguments: ["x"], directory: folder, environment: [:]).shard == nil)
        #expect(try Options.load(arguments: ["check", "x"], directory: folder, environment: gitLab).shard == nil)
        #expect(throws: Diagnostic.self) {
            try Options.load(arguments: ["x"], directory: folder, environment: ["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"])
        }
    }

    @Test("Buildkite, CircleCI and Kubernetes name the shard from 0; GitLab from 1")
    func everyCI() throws {
        let folder = Scratch.folder("every-ci")
        func shard(_ environment: [String: String]) throws -> Shard? {
            try Options.load(arguments: ["x"], directory: folder, environment: environment).shard
        }
        #expect(try shard(["BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "4"]) == Shard(index: 1, count: 4))
        #expect(try shard(["BUILDKITE_PARALLEL_JOB": "3", "BUILDKITE_PARALLEL_JOB_COUNT": "4"]) == Shard(index: 4, count: 4))
        #expect(try shard(["CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "3"]) == Shard(index: 2, count: 3))
        #expect(try shard(["JOB_COMPLETION_INDEX": "2", "STORYRUN_SHARD_TOTAL": "3"]) == Shard(index: 3, count: 3))
        #expect(try shard(["CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"]) == Shard(index: 3, count: 3))
        // CircleCI names every job 0 of 1: the whole run.
        #expect(try shard(["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "1"]) == nil)
        let given = try Options.load(
            arguments: ["--shard", "1/2", "x"], directory: folder, environment: ["CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "3"])
        #expect(given.shard == Shard(index: 1, count: 2))
        let bad: [([String: String], String)] = [
            (["BUILDKITE_PARALLEL_JOB": "4", "BUILDKITE_PARALLEL_JOB_COUNT": "4"], "BUILDKITE_PARALLEL_JOB=4 and BUILDKITE_PARALLEL_JOB_COUNT=4"),
            (["CIRCLE_NODE_INDEX": "-1", "CIRCLE_NODE_TOTAL": "2"], "CIRCLE_NODE_INDEX=-1"),
            (["CIRCLE_NODE_INDEX": "one", "CIRCLE_NODE_TOTAL": "2"], "CIRCLE_NODE_INDEX=one"),
            (["JOB_COMPLETION_INDEX": "1"], "JOB_COMPLETION_INDEX=1 is set but STORYRUN_SHARD_TOTAL is not"),
            (["JOB_COMPLETION_INDEX": "0", "STORYRUN_SHARD_TOTAL": "0"], "STORYRUN_SHARD_TOTAL=0"),
            (["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"], "CI_NODE_INDEX=0 and CI_NODE_TOTAL=3 do not name a shard (1 ≤ index ≤ total)"),
        ]
        for (environment, message) in bad {
            do {
                _ = try shard(environment)
                Issue.record("\(environment) named a shard")
            } catch let error as Diagnostic {
                #expect(error.problem.contains(message), "\(error.problem)")
            }
        }
    }

    @Test("-D parameters: KEY=VALUE, the last wins, and workers get them")
    func parameters() throws {
        let options = try Options(arguments: ["-D", "a=1", "-Db=x=y", "-D", "a=2", "--define", "c=", "x"])
        #expect(options.parameters == ["a": "2", "b": "x=y", "c": ""])
        let forwarded = options.workerArguments
        #expect(zip(forwarded, forwarded.dropFirst()).filter { $0.0 == "-D" }.map(\.1) == ["a=2", "b=x=y", "c="])
        for bad in [["-D", "novalue"], ["-D", "=x"], ["-D"]] {
            #expect(throws: Diagnostic.self) { try Options(arguments: bad + ["x"]) }
        }
    }

    @Test("Typed parameter reads convert as step arguments do, with errors at the read")
    func typedReads() throws {
        let parameters = StoryParameters(["retries": "3", "ratio": "0.5", "name": "x"])
        #expect(try parameters.value("retries", as: Int.self) == 3)
        #expect(try parameters.value("ratio", as: Double.self) == 0.5)
        #expect(parameters["name"] == "x" && parameters["nope"] == nil)
        do {
            _ = try parameters.value("name", as: Int.self)
            Issue.record("converted")
        } catch let error as StoryParameterError {
            #expect(error.message == "the parameter \"name\" is \"x\", which is not Int")
            #expect(error.location?.file == #filePath)
        }
        do {
            _ = try parameters.value("missing", as: String.self)
            Issue.record("found")
        } catch let error as StoryParameterError {
            #expect(error.message.contains("no parameter \"missing\" was given"))
            #expect(error.message.contains("given: \"name\", \"ratio\", \"retries\""))
        }
    }

    @Test("Repeated --tags and --name all count, from the command line and from a config list; a later layer replaces them")
    func repeatedTagsAndNames() throws {
        let plain = try Options(arguments: ["--tags", "@smoke", "-t", "not @slow", "--name", "a", "--name", "b", "x.stories"])
        #expect(plain.tagExpressions == ["@smoke", "not @slow"])
        #expect(plain.namePatterns == ["a", "b"])

        let json = """
            {
              "paths": ["a.stories"],
              "tags": ["@smoke", "not @slow"], "name": "login",
              "profiles": {"wip": {"tags": "@wip", "name": ["x", "y"]}}
            }
            """
        let defaults = try Self.load([], json: json)
        #expect(defaults.tagExpressions == ["@smoke", "not @slow"])
        #expect(defaults.namePatterns == ["login"])
        let wip = try Self.load(["--profile", "wip"], json: json)
        #expect(wip.tagExpressions == ["@wip"])
        #expect(wip.namePatterns == ["x", "y"])
        let commandLine = try Self.load(["--tags", "@a", "--tags", "@b"], json: json)
        #expect(commandLine.tagExpressions == ["@a", "@b"])
        #expect(commandLine.namePatterns == ["login"])
    }
}

extension ConfigFileTests {
    /// Before, a config file some editors save with a byte order mark was
    /// "not JSON" at 1:1, the mark unnamed and invisible.
    @Test("A config file that starts with a byte order mark is read")
    func byteOrderMark() throws {
        let options = try Self.load(["a.stories"], json: "\u{FEFF}{\"strict\": true}")
        #expect(options.isStrict)
    }

    /// Before, `definitions --bogus` ignored the option and exited 0.
    @Test("definitions takes --json and nothing else")
    func definitionsOptions() throws {
        #expect(throws: Diagnostic.self) { try Options(arguments: ["definitions", "--bogus"]) }
        #expect(try Options(arguments: ["definitions", "--json"]).command == .definitions(json: true))
        #expect(try Options(arguments: ["definitions", "-h"]).command == .help)
    }
}

extension ConfigFileTests {
    /// Before, a key given twice kept its first value for "strict" and its
    /// last for "tags", silently.
    @Test("A key given twice in the config file, or in one profile, is an error at the second", arguments: [
        "{\"strict\": true,\n \"strict\": false}", "{\"tags\": \"@a\",\n \"tags\": \"@b\"}",
        "{\"profiles\": {\"ci\": {\"strict\": true,\n \"strict\": false}}}",
    ])
    func duplicateKey(json: String) {
        #expect {
            _ = try Self.load(["a.stories"], json: json)
        } throws: { error in
            let diagnostic = error as? Diagnostic
            return diagnostic?.location?.line == 2 && diagnostic?.problem.contains("is given twice") == true
        }
    }
}
