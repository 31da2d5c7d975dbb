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
        /// Its path as its stories' places show it (for its heading).
        var displayPath: String
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
            files.append(FileSection(
                file: file, name: result.story.groupName, description: description?.isEmpty == false ? description : nil,
                displayPath: result.story.location.displayPath))
        }
        lastFile = (file, index)
        // The section is changed in place: a copy of it would copy its
        // lists of places for every story.
        let storyIndex = files[index].count
        var rule = files[index].rule
        let anchor = (file: index, story: storyIndex)
        let place = spill!.append { out in
            // The rule's id compared first: the rule itself (its strings
            // and children) is taken only when its heading is written.
            var heading: GherkinRule?
            if let place = info.place(of: result.story), let id = place.rule?.id, id != rule, let current = place.rule {
                rule = id
                heading = current
            }
            JSONWriter.write(into: &out, scriptSafe: true, afterElement: storyIndex > 0) { json in
                if storyIndex > 0 { json.lineBreak() }
                story(result, rule: heading, info: info, into: &json)
            }
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
            line.htmlEscaped(Self.reason(result).ansiStripped)
            line.literal("</span></li>")
            files[index].attention.append(spill!.append(line))
        }
        files[index].counts[result.status, default: 0] += 1
        files[index].count += 1
    }

    /// The start of one file's group of stories in the page's data:
    /// `{"n":heading,"p":path,"d":description,"s":[` (its stories follow).
    func header(of section: FileSection, first: Bool) -> [UInt8] {
        let file = section.file
        let name = section.count > 0 ? section.name : file
        let base = file.split(separator: "/").last.map(String.init) ?? file
        return JSONWriter.bytes(scriptSafe: true, afterElement: !first) { json in
            if !first { json.lineBreak() }
            json.beginObject()
            json.key("n")
            json.string(name == file ? Self.humanName(base) : name)
            json.key("p")
            json.string(section.displayPath)
            if let description = section.description {
                json.key("d")
                json.string(Self.trimmed(description))
            }
            json.key("s")
            json.beginArray()
            json.lineBreak()
        }
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
}

extension HTMLReporter {
    /// A description with the indentation of its first line removed from each line.
    static func trimmed(_ description: String) -> String {
        let lines = description.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = lines.first.map { $0.prefix { $0 == " " || $0 == "\t" }.count } ?? 0
        return lines.map { line in String(line.dropFirst(min(indent, line.prefix { $0 == " " || $0 == "\t" }.count))) }.joined(separator: "\n")
    }
}
