import Foundation

/// A story in the page's data, which the page's script shows (`HTMLReporter.script`
/// reads the same keys). A story:
/// `st` status, `n` name, `l` line, `t` tags, `ms` duration, `c` [passed, run]
/// steps, `a` attempts, `fl` flaky, `an` attempts note, `d` description,
/// `r` [keyword, name, description] of a rule that starts with it, `x` its test
/// steps, `e` earlier attempts [[status, test steps]], `w` why it needs
/// attention, `fx` a failure without a failing step.
/// A step: `s` status, `k` keyword, `t` text, `l` line, `ms`, `bg` from the
/// background, `tb` data table, `doc` [content, media type], `m` [pattern,
/// place], `err` [message, places], `nt` [note, place], `sn` snippet, `at`
/// attachments. A hook: `h` kind, `s`, `p` place, `ms`, `err`, `nt`, `at`.
extension HTMLReporter {
    /// Appends a story's object.
    func story(_ result: StoryResult, rule: GherkinRule?, info: StoryFileInfo, into json: inout [UInt8]) {
        let story = result.story
        json.literal("{\"st\":\"")
        json.text(result.status.rawValue)
        json.literal("\",\"n\":")
        json.scriptJSON(story.name)
        json.literal(",\"l\":")
        json.decimal(story.location.line)
        if !story.tags.isEmpty {
            json.literal(",\"t\":[")
            for (number, tag) in story.tags.enumerated() {
                if number > 0 { json.append(UInt8(ascii: ",")) }
                json.scriptJSON(tag)
            }
            json.append(UInt8(ascii: "]"))
        }
        json.literal(",\"ms\":\"")
        Self.writeDuration(result.duration, into: &json)
        // Counted in place: `result.steps` would make an array of copies.
        json.literal("\",\"c\":[")
        json.decimal(result.testSteps.count { $0.stepStatus == .passed })
        json.append(UInt8(ascii: ","))
        json.decimal(result.testSteps.count { $0.stepStatus != nil })
        json.append(UInt8(ascii: "]"))
        if result.attempts > 1 {
            json.literal(",\"a\":")
            json.decimal(result.attempts)
            if result.isFlaky { json.literal(",\"fl\":1") }
            json.literal(",\"an\":")
            json.scriptJSON(result.attemptsNote ?? "")
        }
        if let description = info.place(of: story)?.scenario.description, !description.isEmpty {
            json.literal(",\"d\":")
            json.scriptJSON(Self.trimmed(description))
        }
        if let rule {
            json.literal(",\"r\":[")
            json.scriptJSON(rule.keyword)
            json.append(UInt8(ascii: ","))
            json.scriptJSON(rule.name)
            json.append(UInt8(ascii: ","))
            json.scriptJSON(Self.trimmed(rule.description))
            json.append(UInt8(ascii: "]"))
        }
        json.literal(",\"x\":")
        testSteps(result.testSteps, story: story, info: info, into: &json)
        if !result.earlierAttempts.isEmpty {
            json.literal(",\"e\":[")
            for (number, attempt) in result.earlierAttempts.enumerated() {
                json.literal(number > 0 ? ",[\"" : "[\"")
                json.text(attempt.status.rawValue)
                json.literal("\",")
                testSteps(attempt.testSteps, story: story, info: info, into: &json)
                json.append(UInt8(ascii: "]"))
            }
            json.append(UInt8(ascii: "]"))
        }
        if [.failed, .undefined, .pending].contains(result.status) {
            json.literal(",\"w\":")
            json.scriptJSON(Self.reason(result))
        }
        if result.status == .failed, result.firstFailure == nil {
            json.literal(result.wasInterrupted ? ",\"fx\":\"The run was interrupted while this story ran.\"" : ",\"fx\":\"The story failed.\"")
        }
        json.append(UInt8(ascii: "}"))
    }

    /// The test steps of an attempt, as a list: every step, and the hooks
    /// that failed or attached something (passing hooks are plumbing a
    /// reader skips).
    private func testSteps(_ testSteps: [TestStepResult], story: Story, info: StoryFileInfo, into json: inout [UInt8]) {
        json.append(UInt8(ascii: "["))
        var stepIndex = 0
        var isFirst = true
        // Looked up once for all the steps.
        let place = info.backgroundStepIDs.isEmpty ? nil : info.place(of: story)
        for testStep in testSteps {
            switch testStep {
            case .step(let step):
                if !isFirst { json.append(UInt8(ascii: ",")) }
                self.step(step, isBackground: info.isBackgroundStep(stepIndex, in: place), into: &json)
                stepIndex += 1
            case .hook(let hook) where hook.status != .passed || !hook.attachments.isEmpty:
                if !isFirst { json.append(UInt8(ascii: ",")) }
                self.hook(hook, into: &json)
            case .hook:
                continue
            }
            isFirst = false
        }
        json.append(UInt8(ascii: "]"))
    }

    private func step(_ step: StepResult, isBackground: Bool, into json: inout [UInt8]) {
        json.literal("{\"s\":\"")
        json.text(step.status.rawValue)
        json.literal("\",\"k\":")
        json.scriptJSON(step.step.keyword)
        json.literal(",\"t\":")
        json.scriptJSON(step.step.text)
        json.literal(",\"l\":")
        json.decimal(step.step.location.line)
        json.literal(",\"ms\":\"")
        Self.writeDuration(step.duration, into: &json)
        json.append(UInt8(ascii: "\""))
        if isBackground { json.literal(",\"bg\":1") }
        argument(step.step.attachment, into: &json)
        if let match = step.match {
            matchFragments.append(match, into: &json) { match, json in
                json.literal(",\"m\":[")
                json.scriptJSON(match.pattern)
                json.append(UInt8(ascii: ","))
                json.scriptJSON(match.location)
                json.append(UInt8(ascii: "]"))
            }
        }
        if let error = step.error, step.status == .pending || step.status == .skipped {
            Self.note(error, into: &json)
        } else if let error = step.error {
            json.literal(",\"err\":[")
            json.scriptJSON(error.message)
            var places = error.location.map { "at \($0.displayFileAndLine)\n" } ?? ""
            places += step.step.location.displayFileAndLine
            json.append(UInt8(ascii: ","))
            json.scriptJSON(places)
            json.append(UInt8(ascii: "]"))
        }
        if step.status == .undefined {
            json.literal(",\"sn\":")
            json.scriptJSON(step.snippet ?? Snippet(for: step.step).code())
        }
        attachments(step.attachments, into: &json)
        json.append(UInt8(ascii: "}"))
    }

    /// A hook, its place said once: the runner's "the after story hook at
    /// Hooks.swift:12 failed: " is taken off its message, and the place
    /// the error was raised is kept only where it differs from the hook's.
    private func hook(_ hook: HookResult, into json: inout [UInt8]) {
        json.literal("{\"h\":")
        json.scriptJSON(hook.kind.prefix(1).uppercased() + hook.kind.dropFirst())
        json.literal(",\"s\":\"")
        json.text(hook.status.rawValue)
        json.literal("\",\"p\":")
        json.scriptJSON(hook.location)
        json.literal(",\"ms\":")
        json.scriptJSON(Self.duration(hook.duration))
        if let error = hook.error, hook.status == .pending || hook.status == .skipped {
            Self.note(error, into: &json)
        } else if let error = hook.error {
            json.literal(",\"err\":[")
            json.scriptJSON(Self.hookMessage(hook, error.message))
            json.append(UInt8(ascii: ","))
            if let place = error.location, place != hook.location {
                json.scriptJSON("at " + place.displayFileAndLine)
            } else {
                json.literal("\"\"")
            }
            json.append(UInt8(ascii: "]"))
        }
        attachments(hook.attachments, into: &json)
        json.append(UInt8(ascii: "}"))
    }

    /// A hook's error message without the runner's preamble that names the
    /// hook and its place again.
    static func hookMessage(_ hook: HookResult, _ message: String) -> String {
        let prefixes = [
            "the \(hook.kind) hook at \(hook.location.displayFileAndLine) failed: ", "the \(hook.kind) hook at \(hook.location.file):\(hook.location.line) failed: ",
            "the \(hook.kind) hook at \(hook.location.displayFileAndLine): ", "the \(hook.kind) hook failed: ",
        ]
        for prefix in prefixes where message.hasPrefix(prefix) { return String(message.dropFirst(prefix.count)) }
        return message
    }

    /// A reason given to pending(_:) or skip(_:), not a failure, with where it was given.
    private static func note(_ error: StepError, into json: inout [UInt8]) {
        json.literal(",\"nt\":[")
        json.scriptJSON(error.message)
        json.append(UInt8(ascii: ","))
        if let place = error.location { json.scriptJSON(place) } else { json.literal("null") }
        json.append(UInt8(ascii: "]"))
    }

    /// A data table as rows of cells, a doc string as its content and media type.
    private func argument(_ argument: StepAttachment?, into json: inout [UInt8]) {
        switch argument {
        case .dataTable(let table):
            json.literal(",\"tb\":[")
            for (number, row) in table.rows.enumerated() {
                json.literal(number > 0 ? ",[" : "[")
                for (column, cell) in row.enumerated() {
                    if column > 0 { json.append(UInt8(ascii: ",")) }
                    json.scriptJSON(cell)
                }
                json.append(UInt8(ascii: "]"))
            }
            json.append(UInt8(ascii: "]"))
        case .docString(let doc):
            json.literal(",\"doc\":[")
            json.scriptJSON(doc.content)
            json.append(UInt8(ascii: ","))
            if let mediaType = doc.mediaType { json.scriptJSON(mediaType) } else { json.literal("null") }
            json.append(UInt8(ascii: "]"))
        case nil:
            break
        }
    }
}
