extension HTMLReporter {
    /// The group of one file's stories, with its own bar.
    func section(_ file: String, index: Int) -> String {
        let stories = results[file] ?? []
        var counts: [StoryStatus: Int] = [:]
        for story in stories { counts[story.status, default: 0] += 1 }
        let passed = counts[.passed, default: 0]
        let name = stories.first?.story.groupName ?? file
        let base = file.split(separator: "/").last.map(String.init) ?? file
        let heading = name == file ? Self.humanName(base) : name
        var html = """
            <section class="file"><h2><span class="name">\(heading.htmlEscaped)</span>
            <small>\(passed) of \(stories.count) pass &middot; <span class="path">\(SourceLocation.relativePath(file).htmlEscaped)</span></small></h2>
            \(bar(counts, total: stories.count, label: "\(passed) of \(stories.count) pass"))

            """
        for (storyIndex, result) in stories.enumerated() {
            html += story(result, anchor: Self.anchor(index, storyIndex))
        }
        return html + "</section>\n"
    }

    /// A file name as a heading: `failing-stories.stories` → `Failing stories`.
    static func humanName(_ base: String) -> String {
        let stem = base.split(separator: ".").first.map(String.init) ?? base
        let words = stem.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    private func story(_ result: StoryResult, anchor: String) -> String {
        let story = result.story
        let tags = story.tags.map { "<span class=\"tag\">\($0.htmlEscaped)</span>" }.joined(separator: " ")
        let passed = result.steps.filter { $0.status == .passed }.count
        var html = """
            <details class="story \(result.status.rawValue)" id="\(anchor)" data-status="\(result.status.rawValue)"\(result.status == .passed ? "" : " open")>
            <summary><span class="status">\(result.status.rawValue)</span><span class="title">\(story.name.htmlEscaped)</span> \(tags)
            <span class="where">\(passed)/\(result.steps.count) steps &middot; \(Self.duration(result.duration))<span class="tech"> &middot; \(story.location.displayFileAndLine.htmlEscaped)</span></span></summary>
            <ol class="steps">

            """
        let skipReason =
            switch result.status {
            case .undefined: "Skipped: a step of this story is not written yet."
            case .skipped: "Skipped: a dry run matches steps without running them."
            case .passed, .failed: "Skipped: an earlier step did not pass."
            }
        for step in result.steps { html += self.step(step, skipReason: skipReason) }
        return html + "</ol></details>\n"
    }

    private func step(_ step: StepResult, skipReason: String) -> String {
        let status = step.status.rawValue
        var html = "<li class=\"step \(status)\"><span class=\"icon\" title=\"\(status)\" aria-label=\"\(status)\">\(Self.icon(step.status))</span>"
        html += "<span class=\"text\"><span class=\"keyword\">\(step.step.keyword.htmlEscaped)</span> \(step.step.text.htmlEscaped)</span>"
        html += "<span class=\"where tech\">line \(step.step.location.line) &middot; \(Self.duration(step.duration))</span>"
        if let match = step.match {
            html += "<div class=\"match tech\">matched <code>\(match.pattern.htmlEscaped)</code> at \(match.location.displayFileAndLine.htmlEscaped)</div>"
        }
        if let error = step.error {
            let place = error.location.map { "at \($0.displayFileAndLine)\n" } ?? ""
            html += "<div class=\"error\"><pre class=\"message\">\(error.message.htmlEscaped)</pre>"
            html += "<pre class=\"places tech\">\(place.htmlEscaped)\(step.step.location.displayFileAndLine.htmlEscaped)</pre></div>"
        }
        if step.status == .undefined {
            html += "<div class=\"note\">Not written yet: no step definition matches this step.</div>"
            html += "<pre class=\"snippet tech\">\(Snippet(for: step.step).code().htmlEscaped)</pre>"
        } else if step.status == .skipped {
            html += "<div class=\"note\">\(skipReason)</div>"
        }
        return html + "</li>\n"
    }

    static func icon(_ status: StepStatus) -> String {
        switch status {
        case .passed: "✓"
        case .failed: "✗"
        case .undefined: "?"
        case .skipped: "–"
        case .ambiguous: "!"
        }
    }
}
