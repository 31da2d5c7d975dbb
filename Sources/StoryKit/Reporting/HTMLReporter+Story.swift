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
        /// Its path as its stories' places show it, escaped once for them all.
        var htmlPath: [UInt8] = []
    }

    /// Renders a story that finished into the spill, under its file.
    mutating func add(_ result: StoryResult) {
        let file = result.story.location.file
        if spill == nil { spill = ReportSpill(near: path) }
        let info = fileInfos.info(file)
        let index: Int
        if let last = lastFile, last.path == file {
            // The file of the story before (nearly always): no lookup by
            // the path's hash.
            index = last.index
        } else if let known = fileIndex[file] {
            index = known
        } else {
            index = files.count
            fileIndex[file] = index
            let description = info.feature?.description
            var htmlPath: [UInt8] = []
            result.story.location.withDisplayPathUTF8 { htmlPath.htmlEscaped($0) }
            files.append(FileSection(
                file: file, name: result.story.groupName, description: description?.isEmpty == false ? description : nil, htmlPath: htmlPath))
        }
        lastFile = (file, index)
        // The section is changed in place: a copy of it would copy its
        // lists of places for every story.
        let storyIndex = files[index].count
        var rule = files[index].rule
        let anchor = (file: index, story: storyIndex)
        let htmlPath = files[index].htmlPath
        let place = spill!.append { html in
            // The rule's id compared first: the rule itself (its strings
            // and children) is taken only when its heading is written.
            if let place = info.place(of: result.story), let id = place.rule?.id, id != rule, let current = place.rule {
                rule = id
                html.literal("<h3 class=\"rule\">")
                html.htmlEscaped(current.keyword)
                html.literal(": ")
                html.htmlEscaped(current.name)
                html.literal("</h3>\n")
                if !current.description.isEmpty {
                    html.literal("<p class=\"description\">")
                    html.htmlEscaped(Self.trimmed(current.description))
                    html.literal("</p>\n")
                }
            }
            story(result, anchor: anchor, htmlPath: htmlPath, info: info, into: &html)
        }
        files[index].rule = rule
        files[index].stories.append(place)
        if [.failed, .undefined, .pending].contains(result.status) {
            var line: [UInt8] = []
            line.literal("\n<li class=\"")
            line.text(result.status.rawValue)
            line.literal("\"><a href=\"#")
            Self.writeAnchor(anchor.file, anchor.story, into: &line)
            line.literal("\"><span class=\"status\">")
            line.text(result.status.rawValue)
            line.literal("</span>")
            line.htmlEscaped(result.story.name)
            line.literal("</a> <span class=\"why\">")
            line.htmlEscaped(Self.reason(result))
            line.literal("</span></li>")
            files[index].attention.append(spill!.append(line))
        }
        files[index].counts[result.status, default: 0] += 1
        files[index].count += 1
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

    /// Appends ``duration(_:)``; below a second (nearly every step) as
    /// digits written in place, not a String.
    static func writeDuration(_ nanoseconds: UInt64, into html: inout [UInt8]) {
        let remainder = nanoseconds % 1_000_000
        // A tie goes to ``duration(_:)``, which lets printf round it.
        guard nanoseconds < 1_000_000_000, remainder * 2 != 1_000_000 else { return html.text(duration(nanoseconds)) }
        html.decimal(Int(nanoseconds / 1_000_000 + (remainder * 2 > 1_000_000 ? 1 : 0)))
        html.literal(" ms")
    }

    /// A file name as a heading: `failing-stories.stories` → `Failing stories`.
    static func humanName(_ base: String) -> String {
        let stem = base.split(separator: ".").first.map(String.init) ?? base
        let words = stem.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// A story's `<details>`: its title, steps and earlier attempts.
    /// `htmlPath`: the path of the story's file as a place shows it, escaped.
    private func story(
        _ result: StoryResult, anchor: (file: Int, story: Int), htmlPath: [UInt8], info: StoryFileInfo, into html: inout [UInt8]
    ) {
        let story = result.story
        let status = result.status.rawValue
        html.literal("<details class=\"story ")
        html.text(status)
        html.literal("\" id=\"")
        Self.writeAnchor(anchor.file, anchor.story, into: &html)
        html.literal("\" data-status=\"")
        html.text(status)
        html.literal(result.status == .passed && result.attempts == 1 ? "\">\n" : "\" open>\n")
        html.literal("<summary><span class=\"status\">")
        html.text(status)
        html.literal("</span><span class=\"title\">")
        html.htmlEscaped(story.name)
        html.literal("</span>")
        if result.attempts > 1 {
            html.literal(result.isFlaky ? " <span class=\"badge flaky\" title=\"" : " <span class=\"badge\" title=\"")
            html.htmlEscaped(result.attemptsNote ?? "")
            html.literal("\">")
            if result.isFlaky {
                html.literal("flaky &middot; passed on attempt ")
                html.decimal(result.attempts)
            } else {
                html.decimal(result.attempts)
                html.literal(" attempts")
            }
            html.literal("</span>")
        }
        html.append(UInt8(ascii: " "))
        for (number, tag) in story.tags.enumerated() {
            if number > 0 { html.append(UInt8(ascii: " ")) }
            html.literal("<span class=\"tag\">")
            html.htmlEscaped(tag)
            html.literal("</span>")
        }
        html.literal("\n<span class=\"where\">")
        // Counted in place: `result.steps` would make an array of copies.
        html.decimal(result.testSteps.count { $0.stepStatus == .passed })
        html.append(UInt8(ascii: "/"))
        html.decimal(result.testSteps.count { $0.stepStatus != nil })
        html.literal(" steps &middot; ")
        Self.writeDuration(result.duration, into: &html)
        html.literal("<span class=\"tech\"> &middot; ")
        // ``htmlEscaped(_:)`` of the story's place, its path escaped once per file.
        html += htmlPath
        html.append(UInt8(ascii: ":"))
        html.decimal(story.location.line)
        html.literal("</span></span></summary>\n")
        if let description = info.place(of: story)?.scenario.description, !description.isEmpty {
            html.literal("<p class=\"description\">")
            html.htmlEscaped(Self.trimmed(description))
            html.literal("</p>\n")
        }
        html.literal("<ol class=\"steps\">\n")
        testSteps(result.testSteps, status: result.status, story: story, info: info, into: &html)
        html.literal("</ol>\n")
        if !result.earlierAttempts.isEmpty {
            html.literal("<details class=\"attempts\"><summary>")
            html.decimal(result.earlierAttempts.count)
            html.literal(result.earlierAttempts.count == 1 ? " earlier attempt failed</summary>\n" : " earlier attempts failed</summary>\n")
            for (number, attempt) in result.earlierAttempts.enumerated() {
                html.literal("<p class=\"attempt\">Attempt ")
                html.decimal(number + 1)
                html.literal(": ")
                html.text(attempt.status.rawValue)
                html.literal("</p><ol class=\"steps\">\n")
                testSteps(attempt.testSteps, status: attempt.status, story: story, info: info, into: &html)
                html.literal("</ol>\n")
            }
            html.literal("</details>\n")
        }
        if result.status == .failed, result.firstFailure == nil {
            html.literal("<div class=\"error\"><pre class=\"message\">")
            html.literal(result.wasInterrupted ? "The run was interrupted while this story ran." : "The story failed.")
            html.literal("</pre></div>\n")
        }
        html.literal("</details>\n")
    }

    /// The test steps of an attempt: every step, and the hooks that failed
    /// or attached something (passing hooks are plumbing a reader skips).
    private func testSteps(_ testSteps: [TestStepResult], status: StoryStatus, story: Story, info: StoryFileInfo, into html: inout [UInt8]) {
        let skipReason: StaticString =
            switch status {
            case .undefined: "Skipped: a step of this story is not written yet."
            case .pending: "Skipped: an earlier step is pending."
            case .skipped:
                testSteps.contains { $0.status == .skipped && $0.error != nil }
                    ? "Skipped: the story was skipped (the reason is above)." : "Skipped: a dry run matches steps without running them."
            case .passed, .failed: "Skipped: an earlier step or hook did not pass."
            }
        var stepIndex = 0
        // Looked up once for all the steps.
        let place = info.backgroundStepIDs.isEmpty ? nil : info.place(of: story)
        for testStep in testSteps {
            switch testStep {
            case .step(let step):
                self.step(step, skipReason: skipReason, isBackground: info.isBackgroundStep(stepIndex, in: place), into: &html)
                stepIndex += 1
            case .hook(let hook) where hook.status != .passed || !hook.attachments.isEmpty:
                self.hook(hook, into: &html)
            case .hook:
                break
            }
        }
    }

    /// `<span class="icon" title="passed" aria-label="passed">✓</span>`.
    private static func icon(_ status: StepStatus, into html: inout [UInt8]) {
        html.literal("<span class=\"icon\" title=\"")
        html.text(status.rawValue)
        html.literal("\" aria-label=\"")
        html.text(status.rawValue)
        html.literal("\">")
        html.text(icon(status))
        html.literal("</span>")
    }

    private func hook(_ hook: HookResult, into html: inout [UInt8]) {
        html.literal("<li class=\"step hook ")
        html.text(hook.status.rawValue)
        html.literal("\">")
        Self.icon(hook.status, into: &html)
        html.literal("<span class=\"text\"><span class=\"keyword\">")
        html.htmlEscaped(hook.kind.prefix(1).uppercased() + hook.kind.dropFirst())
        html.literal(" hook</span> <span class=\"hookplace\">")
        html.htmlEscaped(hook.location)
        html.literal("</span></span><span class=\"where tech\">")
        html.text(Self.duration(hook.duration))
        html.literal("</span>")
        if let error = hook.error, hook.status == .pending || hook.status == .skipped {
            Self.note(error, isPending: hook.status == .pending, into: &html)
        } else if let error = hook.error {
            html.literal("<div class=\"error\"><pre class=\"message\">")
            html.htmlEscaped(error.message)
            html.literal("</pre>")
            if let place = error.location {
                html.literal("<pre class=\"places\">at ")
                html.htmlEscaped(place)
                html.literal("</pre>")
            }
            html.literal("</div>")
        }
        attachments(hook.attachments, into: &html)
        html.literal("</li>\n")
    }

    /// A reason given to pending(_:) or skip(_:), not a failure, with where it was given.
    private static func note(_ error: StepError, isPending: Bool, into html: inout [UInt8]) {
        html.literal(isPending ? "<div class=\"note\">Pending: " : "<div class=\"note\">Skipped: ")
        html.htmlEscaped(error.message)
        html.literal("<span class=\"tech\">")
        if let place = error.location {
            html.literal(" (")
            html.htmlEscaped(place)
            html.literal(")")
        }
        html.literal("</span></div>")
    }

    private func step(_ step: StepResult, skipReason: StaticString, isBackground: Bool, into html: inout [UInt8]) {
        html.literal("<li class=\"step ")
        html.text(step.status.rawValue)
        html.literal(isBackground ? " background\">" : "\">")
        Self.icon(step.status, into: &html)
        html.literal("<span class=\"text\"><span class=\"keyword\">")
        html.htmlEscaped(step.step.keyword)
        html.literal("</span> ")
        html.htmlEscaped(step.step.text)
        html.literal("</span>")
        if isBackground {
            html.literal(" <span class=\"from\" title=\"a step of the Background, run before each story of its feature or rule\">background</span>")
        }
        html.literal("<span class=\"where tech\">line ")
        html.decimal(step.step.location.line)
        html.literal(" &middot; ")
        Self.writeDuration(step.duration, into: &html)
        html.literal("</span>")
        argument(step.step.attachment, into: &html)
        if let match = step.match {
            matchFragments.append(match, into: &html) { match, html in
                html.literal("<div class=\"match tech\">matched <code>")
                html.htmlEscaped(match.pattern)
                html.literal("</code> at ")
                html.htmlEscaped(match.location)
                html.literal("</div>")
            }
        }
        if let error = step.error, step.status == .pending || step.status == .skipped {
            Self.note(error, isPending: step.status == .pending, into: &html)
        } else if let error = step.error {
            html.literal("<div class=\"error\"><pre class=\"message\">")
            html.htmlEscaped(error.message)
            html.literal("</pre><pre class=\"places tech\">")
            if let place = error.location {
                html.literal("at ")
                html.htmlEscaped(place)
                html.literal("\n")
            }
            html.htmlEscaped(step.step.location)
            html.literal("</pre></div>")
        }
        if step.status == .undefined {
            html.literal("<div class=\"note\">Not written yet: no step definition matches this step.</div>")
            html.literal("<pre class=\"snippet tech\">")
            html.htmlEscaped(step.snippet ?? Snippet(for: step.step).code())
            html.literal("</pre>")
        } else if step.status == .pending, step.error == nil {
            html.literal("<div class=\"note\">Pending: the step is not written yet.</div>")
        } else if step.status == .skipped, step.error == nil {
            html.literal("<div class=\"note\">")
            html.literal(skipReason)
            html.literal("</div>")
        }
        attachments(step.attachments, into: &html)
        html.literal("</li>\n")
    }

    /// A data table as a table, a doc string as a preformatted block.
    private func argument(_ argument: StepAttachment?, into html: inout [UInt8]) {
        switch argument {
        case .dataTable(let table):
            html.literal("<table class=\"datatable\">")
            for row in table.rows {
                html.literal("<tr>")
                for cell in row {
                    html.literal("<td>")
                    html.htmlEscaped(cell)
                    html.literal("</td>")
                }
                html.literal("</tr>")
            }
            html.literal("</table>")
        case .docString(let doc):
            html.literal("<div class=\"docstring\">")
            if let mediaType = doc.mediaType {
                html.literal("<span class=\"mediatype\">")
                html.htmlEscaped(mediaType)
                html.literal("</span>")
            }
            html.literal("<pre>")
            html.htmlEscaped(doc.content)
            html.literal("</pre></div>")
        case nil:
            break
        }
    }

    /// Images inline, log lines as they are, other text and JSON in
    /// blocks that open on a click, anything else as a download.
    func attachments(_ attachments: [Attachment], into html: inout [UInt8]) {
        for attachment in attachments {
            // Its note, after it.
            func note() {
                guard let note = attachment.limitNote else { return }
                html.literal("<div class=\"note\">")
                html.htmlEscaped(note)
                html.literal("</div>")
            }
            guard let body = attachment.reportBody else {
                html.literal("<div class=\"attachment\">")
                html.htmlEscaped(attachment.label)
                note()
                html.literal("</div>")
                continue
            }
            if attachment.mediaType == Attachment.logMediaType {
                html.literal("<pre class=\"log\">")
                html.htmlEscaped(body)
                html.literal("</pre>")
            } else if attachment.mediaType.hasPrefix("image/") {
                let source = "data:\(attachment.mediaType);base64,\(attachment.isText ? Data(body.utf8).base64EncodedString() : body)"
                html.literal("<figure class=\"attachment\"><img src=\"")
                html.htmlEscaped(source)
                html.literal("\" alt=\"")
                html.htmlEscaped(attachment.name ?? "attached image")
                html.literal("\"><figcaption>")
                html.htmlEscaped(attachment.label)
                html.literal("</figcaption></figure>")
            } else if attachment.isText {
                html.literal("<details class=\"attachment\"><summary>")
                html.htmlEscaped(attachment.label)
                html.literal("</summary><pre>")
                html.htmlEscaped(body)
                html.literal("</pre></details>")
            } else {
                html.literal("<div class=\"attachment\"><a download=\"")
                html.htmlEscaped(attachment.name ?? "attachment")
                html.literal("\" href=\"")
                html.htmlEscaped("data:\(attachment.mediaType);base64,\(body)")
                html.literal("\">")
                html.htmlEscaped(attachment.label)
                html.literal("</a>, ")
                html.decimal(attachment.data.count)
                html.literal(" bytes</div>")
            }
            note()
        }
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
