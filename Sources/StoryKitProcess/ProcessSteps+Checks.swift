import Foundation
import StepLibrarySupport
import StoryKit

extension ProcessSteps {
    static func defineChecks(_ step: StepMap<ProcessSteps>) {
        step("^the command succeeds$") { steps in try steps.expectSuccess() }
        step("^the command fails$") { steps in
            let result = try steps.lastResult()
            if result.termination == .exited(0) { try fail(result.summary + "\n(expected a status other than 0)") }
        }
        step(#"^the command exits with status (\d+)$"#) { (steps: ProcessSteps, status: Int32) in
            let result = try steps.lastResult()
            if result.termination != .exited(status) || result.timedOut {
                try fail(result.summary + "\n(expected it to exit with status \(status))")
            }
        }
        step(#"^the command is stopped by (SIG[A-Z0-9]+)$"#) { (steps: ProcessSteps, name: String) in
            let result = try steps.lastResult()
            guard let signal = Termination.number(of: name) else { try fail("\(name) is not a signal name") }
            if result.termination != .signalled(signal) { try fail(result.summary + "\n(expected it to be stopped by \(name))") }
        }
        step("^the command runs out of time$") { steps in
            let result = try steps.lastResult()
            if !result.timedOut { try fail(result.summary + "\n(expected it to overrun its time limit)") }
        }
        step("^(stdout|stderr|the output) (is|contains|does not contain|matches):$") {
            (steps: ProcessSteps, stream: String, check: String, expected: DocString) in
            let text = try steps.lastResult().stream(stream)
            try OutputCheck.check(
                text, check, Placeholders.expand(expected.content, in: steps.store), what: "\(stream) of `\(steps.lastResult().commandLine)`")
        }
        step(#"^(stdout|stderr|the output) (contains|does not contain) "(.*)"$"#) {
            (steps: ProcessSteps, stream: String, check: String, expected: String) in
            let text = try steps.lastResult().stream(stream)
            try OutputCheck.check(
                text, check, Placeholders.expand(expected, in: steps.store), what: "\(stream) of `\(steps.lastResult().commandLine)`")
        }
        step("^(stdout|stderr|the output) matches /(.*)/$") { (steps: ProcessSteps, stream: String, pattern: String) in
            let text = try steps.lastResult().stream(stream)
            try OutputCheck.check(text, "matches", pattern, what: "\(stream) of `\(steps.lastResult().commandLine)`")
        }
        step("^(stdout|stderr|the output) is empty$") { (steps: ProcessSteps, stream: String) in
            let text = try steps.lastResult().stream(stream)
            try OutputCheck.check(text, "is", "", what: "\(stream) of `\(steps.lastResult().commandLine)`")
        }
        step(#"^(stdout|stderr|the output) has (\d+) bytes?$"#) { (steps: ProcessSteps, stream: String, count: Int) in
            let text = try steps.lastResult().stream(stream)
            try expectEqual(text.utf8.count, count, "the size of \(stream)")
        }
    }

    static func defineFileChecks(_ step: StepMap<ProcessSteps>) {
        step(#"^the (file|folder) "([^"]+)" (exists|does not exist)$"#) {
            (steps: ProcessSteps, kind: String, name: String, check: String) in
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: steps.path(name), isDirectory: &isFolder)
                && isFolder.boolValue == (kind == "folder")
            if exists != (check == "exists") {
                try fail("the \(kind) \(name) \(exists ? "exists" : "does not exist") in \(steps.workingDirectory)"
                    + "; it holds: \(steps.listing())")
            }
        }
        step(#"^the file "([^"]+)" contains "(.*)"$"#) { (steps: ProcessSteps, name: String, expected: String) in
            try OutputCheck.check(steps.read(name), "contains", Placeholders.expand(expected, in: steps.store), what: "the file \(name)")
        }
        step(#"^the file "([^"]+)" (is|contains|does not contain|matches):$"#) {
            (steps: ProcessSteps, name: String, check: String, expected: DocString) in
            try OutputCheck.check(
                steps.read(name), check, Placeholders.expand(expected.content, in: steps.store), what: "the file \(name)")
        }
    }

    /// Reads a file of the story's directory as text.
    func read(_ name: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path(name)) else {
            try fail("there is no file \(name) in \(workingDirectory); it holds: \(listing())")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The story directory's entries, for messages.
    func listing() -> String {
        let names = (FileManager.default.enumerator(atPath: workingDirectory)?.allObjects as? [String] ?? []).sorted()
        return names.isEmpty ? "nothing" : names.prefix(30).joined(separator: ", ")
    }
}

/// Text checks shared by output and file steps: equal (with a diff),
/// contains, does not contain, matches a regex.
enum OutputCheck {
    /// Compiles a regex whose `^` and `$` match at line ends.
    static func regex(_ pattern: String) throws -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        } catch {
            try fail("/\(pattern)/ is not a valid regular expression")
        }
    }

    static func matches(_ regex: NSRegularExpression, _ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Fails the step unless the text passes the check.
    static func check(_ text: String, _ check: String, _ expected: String, what: String) throws {
        // A trailing newline of output is not part of what a doc string can say.
        let actual = text.hasSuffix("\n") ? String(text.dropLast()) : text
        switch check {
        case "is":
            if let diff = TextDiff.render(expected: expected, actual: actual) {
                try fail("\(what) is not as expected:\n\(diff)")
            }
        case "contains":
            if !text.contains(expected) { try fail("\(what) does not contain \"\(expected)\"; it is:\n\(CommandResult.tail(text))") }
        case "does not contain":
            if text.contains(expected) { try fail("\(what) contains \"\(expected)\"; it is:\n\(CommandResult.tail(text))") }
        default:
            if !matches(try regex(expected), text) { try fail("\(what) does not match /\(expected)/; it is:\n\(CommandResult.tail(text))") }
        }
    }
}
