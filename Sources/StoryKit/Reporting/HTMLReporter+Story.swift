import Foundation

extension HTMLReporter {
    /// One file's group of stories on the page: what its heading needs,
    /// and where its stories' parts are.
    struct FileSection {
        var file: String
        /// The group name of its first story.
        var name: String
        /// The Feature's description, when the file has one.
        var description: String?
        var counts: [StoryStatus: Int] = [:]
        var count = 0
        /// The rule of the last story, whose heading is already written.
        var rule: Int?
        var stories: [ReportSpill.Place] = []
        /// Its lines in "Needs attention", each starting with a line end.
        var attention: [ReportSpill.Place] = []
    }

    /// Renders a story that finished into the spill, under its file.
    mutating func add(_ result: StoryResult) {
        let file = result.story.location.file
        if spill == nil { spill = ReportSpill(near: path) }
        let info = fileInfos.info(file)
        let index: Int
        if let known = fileIndex[file] {
            index = known
        } else {
            index = files.count
            fileIndex[file] = index
            let description = info.feature?.description
            files.append(FileSection(file: file, name: result.story.groupName, description: description?.isEmpty == false ? description : nil))
        }
        var section = files[index]
        let storyIndex = section.count
        let anchor = Self.anchor(index, storyIndex)
        var html = ""
        if let current = info.place(of: result.story)?.rule, current.id != section.rule {
            section.rule = current.id
            html += "<h3 class=\"rule\">\(current.keyword.htmlEscaped): \(current.name.htmlEscaped)</h3>\n"
            if !current.description.isEmpty { html += "<p class=\"description\">\(Self.trimmed(current.description).htmlEscaped)</p>\n" }
        }
        html += story(result, anchor: anchor, info: info)
        section.stories.append(spill!.append(html))
        if [.failed, .undefined, .pending].contains(result.status) {
            section.attention.append(spill!.append(
                "\n<li class=\"\(result.status.rawValue)\"><a href=\"#\(anchor)\"><span class=\"status\">\(result.status.rawValue)</span>\(result.story.name.htmlEscaped)</a>"
                    + " <span class=\"why\">\(Self.reason(result).htmlEscaped)</span></li>"))
        }
        section.counts[result.status, default: 0] += 1
        section.count += 1
        files[index] = section
    }

    /// The start of one file's group of stories, with its own bar.
    func header(of section: FileSection) -> String {
        let file = section.file
        let passed = section.counts[.passed, default: 0]
        let name = section.count > 0 ? section.name : file
        let base = file.split(separator: "/").last.map(String.init) ?? file
        let heading = name == file ? Self.humanName(base) : name
        var html = """
            <section class="file"><h2><span class="name">\(heading.htmlEscaped)</span>
            <small>\(passed) of \(section.count) pass &middot; <span class="path">\(SourceLocation.relativePath(file).htmlEscaped)</span></small></h2>
            \(bar(section.counts, total: section.count, label: "\(passed) of \(section.count) pass"))

            """
        if let description = section.description {
            html += "<p class=\"description\">\(Self.trimmed(description).htmlEscaped)</p>\n"
        }
        return html
    }

    /// A file name as a heading: `failing-stories.stories` → `Failing stories`.
    static func humanName(_ base: String) -> String {
        let stem = base.split(separator: ".").first.map(String.init) ?? base
        let words = stem.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    private func story(_ result: StoryResult, anchor: String, info: StoryFileInfo) -> String {
        let story = result.story
        let tags = story.tags.map { "<span class=\"tag\">\($0.htmlEscaped)</span>" }.joined(separator: " ")
        let passed = result.steps.filter { $0.status == .passed }.count
        let flaky = result.attempts > 1
            ? " <span class=\"badge\(result.isFlaky ? " flaky" : "")\" title=\"\(result.attemptsNote?.htmlEscaped ?? "")\">"
                + (result.isFlaky ? "flaky &middot; passed on attempt \(result.attempts)" : "\(result.attempts) attempts") + "</span>"
            : ""
        var html = """
            <details class="story \(result.status.rawValue)" id="\(anchor)" data-status="\(result.status.rawValue)"\(result.status == .passed && result.attempts == 1 ? "" : " open")>
            <summary><span class="status">\(result.status.rawValue)</span><span class="title">\(story.name.htmlEscaped)</span>\(flaky) \(tags)
            <span class="where">\(passed)/\(result.steps.count) steps &middot; \(Self.duration(result.duration))<span class="tech"> &middot; \(story.location.displayFileAndLine.htmlEscaped)</span></span></summary>

            """
        if let description = info.place(of: story)?.scenario.description, !description.isEmpty {
            html += "<p class=\"description\">\(Self.trimmed(description).htmlEscaped)</p>\n"
        }
        html += "<ol class=\"steps\">\n"
        testSteps(result.testSteps, status: result.status, story: story, info: info, into: &html)
        html += "</ol>\n"
        if !result.earlierAttempts.isEmpty {
            html += "<details class=\"attempts\"><summary>\(result.earlierAttempts.count) earlier attempt\(result.earlierAttempts.count == 1 ? "" : "s") failed</summary>\n"
            for (number, attempt) in result.earlierAttempts.enumerated() {
                html += "<p class=\"attempt\">Attempt \(number + 1): \(attempt.status.rawValue)</p><ol class=\"steps\">\n"
                testSteps(attempt.testSteps, status: attempt.status, story: story, info: info, into: &html)
                html += "</ol>\n"
            }
            html += "</details>\n"
        }
        if result.status == .failed, result.firstFailure == nil {
            html += "<div class=\"error\"><pre class=\"message\">\(result.wasInterrupted ? "The run was interrupted while this story ran." : "The story failed.")</pre></div>\n"
        }
        return html + "</details>\n"
    }

    /// The test steps of an attempt: every step, and the hooks that failed
    /// or attached something (passing hooks are plumbing a reader skips).
    private func testSteps(_ testSteps: [TestStepResult], status: StoryStatus, story: Story, info: StoryFileInfo, into html: inout String) {
        let skipReason =
            switch status {
            case .undefined: "Skipped: a step of this story is not written yet."
            case .pending: "Skipped: an earlier step is pending."
            case .skipped:
                testSteps.contains { $0.status == .skipped && $0.error != nil }
                    ? "Skipped: the story was skipped (the reason is above)." : "Skipped: a dry run matches steps without running them."
            case .passed, .failed: "Skipped: an earlier step or hook did not pass."
            }
        var stepIndex = 0
        for testStep in testSteps {
            switch testStep {
            case .step(let step):
                self.step(step, skipReason: skipReason, isBackground: info.isBackgroundStep(stepIndex, of: story), into: &html)
                stepIndex += 1
            case .hook(let hook) where hook.status != .passed || !hook.attachments.isEmpty:
                self.hook(hook, into: &html)
            case .hook:
                break
            }
        }
    }

    private func hook(_ hook: HookResult, into html: inout String) {
        let status = hook.status.rawValue
        html += "<li class=\"step hook \(status)\"><span class=\"icon\" title=\"\(status)\" aria-label=\"\(status)\">\(Self.icon(hook.status))</span>"
        html += "<span class=\"text\"><span class=\"keyword\">\(hook.kind.prefix(1).uppercased() + hook.kind.dropFirst()) hook</span> <span class=\"hookplace\">\(hook.location.displayFileAndLine.htmlEscaped)</span></span>"
        html += "<span class=\"where tech\">\(Self.duration(hook.duration))</span>"
        if let error = hook.error, hook.status == .pending || hook.status == .skipped {
            let place = error.location.map { " (\($0.displayFileAndLine))" } ?? ""
            html += "<div class=\"note\">\(hook.status == .pending ? "Pending" : "Skipped"): \(error.message.htmlEscaped)<span class=\"tech\">\(place.htmlEscaped)</span></div>"
        } else if let error = hook.error {
            html += "<div class=\"error\"><pre class=\"message\">\(error.message.htmlEscaped)</pre>"
            if let place = error.location { html += "<pre class=\"places\">at \(place.displayFileAndLine.htmlEscaped)</pre>" }
            html += "</div>"
        }
        html += attachments(hook.attachments)
        html += "</li>\n"
    }

    private func step(_ step: StepResult, skipReason: String, isBackground: Bool, into html: inout String) {
        let status = step.status.rawValue
        html += "<li class=\"step \(status)\(isBackground ? " background" : "")\"><span class=\"icon\" title=\"\(status)\" aria-label=\"\(status)\">\(Self.icon(step.status))</span>"
        html += "<span class=\"text\"><span class=\"keyword\">\(step.step.keyword.htmlEscaped)</span> \(step.step.text.htmlEscaped)</span>"
        if isBackground { html += " <span class=\"from\" title=\"a step of the Background, run before each story of its feature or rule\">background</span>" }
        html += "<span class=\"where tech\">line \(step.step.location.line) &middot; \(Self.duration(step.duration))</span>"
        html += argument(step.step.attachment)
        if let match = step.match {
            html += "<div class=\"match tech\">matched <code>\(match.pattern.htmlEscaped)</code> at \(match.location.displayFileAndLine.htmlEscaped)</div>"
        }
        if let error = step.error, step.status == .pending || step.status == .skipped {
            // A reason given to pending(_:) or skip(_:), not a failure.
            let place = error.location.map { " (\($0.displayFileAndLine))" } ?? ""
            html += "<div class=\"note\">\(step.status == .pending ? "Pending" : "Skipped"): \(error.message.htmlEscaped)<span class=\"tech\">\(place.htmlEscaped)</span></div>"
        } else if let error = step.error {
            let place = error.location.map { "at \($0.displayFileAndLine)\n" } ?? ""
            html += "<div class=\"error\"><pre class=\"message\">\(error.message.htmlEscaped)</pre>"
            html += "<pre class=\"places tech\">\(place.htmlEscaped)\(step.step.location.displayFileAndLine.htmlEscaped)</pre></div>"
        }
        if step.status == .undefined {
            html += "<div class=\"note\">Not written yet: no step definition matches this step.</div>"
            html += "<pre class=\"snippet tech\">\((step.snippet ?? Snippet(for: step.step).code()).htmlEscaped)</pre>"
        } else if step.status == .pending, step.error == nil {
            html += "<div class=\"note\">Pending: the step is not written yet.</div>"
        } else if step.status == .skipped, step.error == nil {
            html += "<div class=\"note\">\(skipReason)</div>"
        }
        html += attachments(step.attachments)
        html += "</li>\n"
    }

    /// A data table as a table, a doc string as a preformatted block.
    private func argument(_ argument: StepAttachment?) -> String {
        switch argument {
        case .dataTable(let table):
            var html = "<table class=\"datatable\">"
            for row in table.rows {
                html += "<tr>" + row.map { "<td>\($0.htmlEscaped)</td>" }.joined() + "</tr>"
            }
            return html + "</table>"
        case .docString(let doc):
            let type = doc.mediaType.map { "<span class=\"mediatype\">\($0.htmlEscaped)</span>" } ?? ""
            return "<div class=\"docstring\">\(type)<pre>\(doc.content.htmlEscaped)</pre></div>"
        case nil:
            return ""
        }
    }

    /// Images inline, log lines as they are, other text and JSON in
    /// blocks that open on a click, anything else as a download.
    func attachments(_ attachments: [Attachment]) -> String {
        attachments.map { attachment -> String in
            let note = attachment.limitNote.map { "<div class=\"note\">\($0.htmlEscaped)</div>" } ?? ""
            guard let body = attachment.reportBody else { return "<div class=\"attachment\">\(attachment.label.htmlEscaped)\(note)</div>" }
            if attachment.mediaType == Attachment.logMediaType {
                return "<pre class=\"log\">\(body.htmlEscaped)</pre>\(note)"
            }
            if attachment.mediaType.hasPrefix("image/") {
                let source = "data:\(attachment.mediaType);base64,\(attachment.isText ? Data(body.utf8).base64EncodedString() : body)"
                return "<figure class=\"attachment\"><img src=\"\(source.htmlEscaped)\" alt=\"\((attachment.name ?? "attached image").htmlEscaped)\"><figcaption>\(attachment.label.htmlEscaped)</figcaption></figure>\(note)"
            }
            if attachment.isText {
                return "<details class=\"attachment\"><summary>\(attachment.label.htmlEscaped)</summary><pre>\(body.htmlEscaped)</pre></details>\(note)"
            }
            let link = "data:\(attachment.mediaType);base64,\(body)"
            return "<div class=\"attachment\"><a download=\"\((attachment.name ?? "attachment").htmlEscaped)\" href=\"\(link.htmlEscaped)\">\(attachment.label.htmlEscaped)</a>, \(attachment.data.count) bytes</div>\(note)"
        }.joined()
    }

    static func icon(_ status: StepStatus) -> String {
        switch status {
        case .passed: "✓"
        case .failed: "✗"
        case .undefined: "?"
        case .skipped: "–"
        case .ambiguous: "!"
        case .pending: "…"
        }
    }
}

extension HTMLReporter {
    /// A description with the indentation of its first line removed from each line.
    static func trimmed(_ description: String) -> String {
        let lines = description.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = lines.first.map { $0.prefix { $0 == " " || $0 == "\t" }.count } ?? 0
        return lines.map { line in String(line.dropFirst(min(indent, line.prefix { $0 == " " || $0 == "\t" }.count))) }.joined(separator: "\n")
    }
}
