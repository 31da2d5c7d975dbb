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
    /// Writes a story's object.
    func story(_ result: StoryResult, rule: GherkinRule?, info: StoryFileInfo, into json: inout JSONWriter) {
        let story = result.story
        json.beginObject()
        json.key("st")
        json.string(result.status.rawValue)
        json.key("n")
        json.string(story.name)
        json.key("l")
        json.integer(story.location.line)
        if !story.tags.isEmpty {
            json.key("t")
            json.beginArray()
            for tag in story.tags { json.string(tag) }
            json.endArray()
        }
        json.key("ms")
        json.string { Self.writeDuration(result.duration, into: &$0) }
        // Counted in place: `result.steps` would make an array of copies.
        json.key("c")
        json.beginArray()
        json.integer(result.testSteps.count { $0.stepStatus == .passed })
        json.integer(result.testSteps.count { $0.stepStatus != nil })
        json.endArray()
        if result.attempts > 1 {
            json.key("a")
            json.integer(result.attempts)
            if result.isFlaky {
                json.key("fl")
                json.integer(1)
            }
            json.key("an")
            json.string(result.attemptsNote ?? "")
        }
        if let description = info.place(of: story)?.scenario.description, !description.isEmpty {
            json.key("d")
            json.string(Self.trimmed(description))
        }
        if let rule {
            json.key("r")
            json.beginArray()
            json.string(rule.keyword)
            json.string(rule.name)
            json.string(Self.trimmed(rule.description))
            json.endArray()
        }
        json.key("x")
        testSteps(result.testSteps, story: story, info: info, into: &json)
        if !result.earlierAttempts.isEmpty {
            json.key("e")
            json.beginArray()
            for attempt in result.earlierAttempts {
                json.beginArray()
                json.string(attempt.status.rawValue)
                testSteps(attempt.testSteps, story: story, info: info, into: &json)
                json.endArray()
            }
            json.endArray()
        }
        if [.failed, .undefined, .pending].contains(result.status) {
            json.key("w")
            json.string(Self.reason(result))
        }
        if result.status == .failed, result.firstFailure == nil {
            json.key("fx")
            json.string(result.wasInterrupted ? "The run was interrupted while this story ran." : "The story failed." as StaticString)
        }
        json.endObject()
    }

    /// The test steps of an attempt, as a list: every step, and the hooks
    /// that failed or attached something (passing hooks are plumbing a
    /// reader skips).
    private func testSteps(_ testSteps: [TestStepResult], story: Story, info: StoryFileInfo, into json: inout JSONWriter) {
        json.beginArray()
        var stepIndex = 0
        // Looked up once for all the steps.
        let place = info.backgroundStepIDs.isEmpty ? nil : info.place(of: story)
        for testStep in testSteps {
            switch testStep {
            case .step(let step):
                self.step(step, isBackground: info.isBackgroundStep(stepIndex, in: place), into: &json)
                stepIndex += 1
            case .hook(let hook) where hook.status != .passed || !hook.attachments.isEmpty:
                self.hook(hook, into: &json)
            case .hook:
                continue
            }
        }
        json.endArray()
    }

    private func step(_ step: StepResult, isBackground: Bool, into json: inout JSONWriter) {
        json.beginObject()
        json.key("s")
        json.string(step.status.rawValue)
        json.key("k")
        json.string(step.step.keyword)
        json.key("t")
        json.string(step.step.text)
        json.key("l")
        json.integer(step.step.location.line)
        json.key("ms")
        json.string { Self.writeDuration(step.duration, into: &$0) }
        if isBackground {
            json.key("bg")
            json.integer(1)
        }
        argument(step.step.attachment, into: &json)
        if let match = step.match {
            json.key("m")
            json.raw { out in
                matchFragments.append(match, into: &out) { match, out in
                    JSONWriter.write(into: &out, scriptSafe: true) { json in
                        json.beginArray()
                        json.string(match.pattern)
                        json.place(match.location)
                        json.endArray()
                    }
                }
            }
        }
        if let error = step.error, step.status == .pending || step.status == .skipped {
            Self.note(error, into: &json)
        } else if let error = step.error {
            json.key("err")
            json.beginArray()
            json.string(error.message)
            var places = error.location.map { "at \($0.displayFileAndLine)\n" } ?? ""
            places += step.step.location.displayFileAndLine
            json.string(places)
            json.endArray()
        }
        if step.status == .undefined {
            json.key("sn")
            json.string(step.snippet ?? Snippet(for: step.step).code())
        }
        attachments(step.attachments, into: &json)
        json.endObject()
    }

    /// A hook, its place said once: the runner's "the after story hook at
    /// Hooks.swift:12 failed: " is taken off its message, and the place
    /// the error was raised is kept only where it differs from the hook's.
    private func hook(_ hook: HookResult, into json: inout JSONWriter) {
        json.beginObject()
        json.key("h")
        json.string(hook.kind.prefix(1).uppercased() + hook.kind.dropFirst())
        json.key("s")
        json.string(hook.status.rawValue)
        json.key("p")
        json.place(hook.location)
        json.key("ms")
        json.string(Self.duration(hook.duration))
        if let error = hook.error, hook.status == .pending || hook.status == .skipped {
            Self.note(error, into: &json)
        } else if let error = hook.error {
            json.key("err")
            json.beginArray()
            json.string(Self.hookMessage(hook, error.message))
            if let place = error.location, place != hook.location {
                json.string("at " + place.displayFileAndLine)
            } else {
                json.string("" as StaticString)
            }
            json.endArray()
        }
        attachments(hook.attachments, into: &json)
        json.endObject()
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
    private static func note(_ error: StepError, into json: inout JSONWriter) {
        json.key("nt")
        json.beginArray()
        json.string(error.message)
        if let place = error.location { json.place(place) } else { json.null() }
        json.endArray()
    }

    /// A data table as rows of cells, a doc string as its content and media type.
    private func argument(_ argument: StepAttachment?, into json: inout JSONWriter) {
        switch argument {
        case .dataTable(let table):
            json.key("tb")
            json.beginArray()
            for row in table.rows {
                json.beginArray()
                for cell in row { json.string(cell) }
                json.endArray()
            }
            json.endArray()
        case .docString(let doc):
            json.key("doc")
            json.beginArray()
            json.string(doc.content)
            if let mediaType = doc.mediaType { json.string(mediaType) } else { json.null() }
            json.endArray()
        case nil:
            break
        }
    }
}

extension JSONWriter {
    /// A place as a string `path:line`, the path as reports show it.
    mutating func place(_ place: SourceLocation) {
        var text: [UInt8] = []
        place.withDisplayPathUTF8 { text.append(contentsOf: $0) }
        text.append(UInt8(ascii: ":"))
        text.decimal(place.line)
        text.withUnsafeBufferPointer { string($0) }
    }
}
