import Foundation

/// Writes Cucumber JSON (`cucumber --format json`): one feature per story
/// file, one element per story, so existing Cucumber dashboards read it.
///
/// The shape is Cucumber's (checked field by field against Debian's
/// `cucumber` by `CucumberJSONDifferentialTests`): the feature's line,
/// description and tags; a `background` element before each scenario whose
/// feature or rule has a Background, holding those steps; tags with the
/// line each is written on; outline rows keyed `Scenario Outline` with ids
/// `feature;outline;examples;row`; `rows` and `doc_string` on steps;
/// `before` and `after` hooks on elements and steps; `output` for logged
/// text and `embeddings` for other attachments.
public struct CucumberJSONReporter: Reporter {
    private let path: String
    /// The story files in the order their first story finished.
    private var features: [Feature] = []
    private var featureIndex: [String: Int] = [:]
    /// The file of the last story and its index in ``features``.
    private var lastFile: (path: String, index: Int)?
    /// Each story's elements, written as it finishes.
    private var spill: ReportSpill?
    /// The story files, read once for all their stories (and all reports).
    var fileInfos = StoryFileInfo.Recent().reader()
    /// The groups' layout of each definition, to place its matches'
    /// arguments from the spans they carry.
    var groupLayouts = GroupLayouts(registry: nil)
    /// Each step definition's place and pattern, as JSON members.
    private let matchFragments = MatchFragments()
    /// Whether the run was `--strict`: each feature says so
    /// (`storyrun_strict`), so `merge` fails its undefined and pending stories.
    var isStrict = false

    /// One story file's feature: its members up to its elements, and where
    /// its stories' elements are.
    private struct Feature {
        /// The feature's JSON up to and with `"elements":[`.
        var head: [UInt8]
        var featureID: String
        var tagLines: [Int: Int]
        var elements: [ReportSpill.Place] = []
    }

    /// Creates a reporter that writes to a path when the run is over.
    public init(path: String) {
        self.path = path
    }

    public mutating func handle(_ event: RunEvent) {
        // Only stories: Cucumber JSON has no place for run hooks, rejected
        // story files or stories not run (Cucumber's formatter writes none),
        // which the terminal, JUnit, HTML and Messages reports say.
        guard case .storyFinished(let result) = event else { return }
        let file = result.story.location.file
        let info = fileInfos.info(file)
        let index: Int
        if let last = lastFile, last.path == file {
            // The file of the story before (nearly always): no lookup by
            // the path's hash.
            index = last.index
        } else if let known = featureIndex[file] {
            index = known
        } else {
            index = features.count
            featureIndex[file] = index
            features.append(feature(file: file, info: info, first: result))
        }
        lastFile = (file, index)
        if spill == nil { spill = ReportSpill(near: path) }
        // Not the whole feature: a copy of it would make appending to its
        // list of elements copy the list.
        let isFirst = features[index].elements.isEmpty
        let featureID = features[index].featureID
        let tagLines = features[index].tagLines
        let place = spill!.append { out in
            JSONWriter.write(into: &out, afterElement: !isFirst) { json in
                elements(result, info: info, featureID: featureID, tagLines: tagLines, into: &json)
            }
        }
        features[index].elements.append(place)
    }

    public mutating func finish() throws {
        let spill = spill ?? ReportSpill(near: path)
        try AtomicFile.write(to: path) { file throws(Diagnostic) in
            try write({ bytes throws(Diagnostic) in try file.write(bytes) }, copy: { places throws(Diagnostic) in try spill.copy(places, to: file) })
        }
    }

    /// Writes the report: `[`, each feature with its elements copied from the spill, `]`.
    private func write(
        _ write: ([UInt8]) throws(Diagnostic) -> Void, copy: ([ReportSpill.Place]) throws(Diagnostic) -> Void
    ) throws(Diagnostic) {
        try write([UInt8(ascii: "[")])
        for (index, feature) in features.enumerated() {
            try write((index > 0 ? [UInt8(ascii: ",")] : []) + feature.head)
            try copy(feature.elements)
            try write(Array("]}".utf8))
        }
        try write(Array("]\n".utf8))
    }

    private func feature(file: String, info: StoryFileInfo, first: StoryResult) -> Feature {
        let feature = info.feature
        let name = feature?.name ?? first.story.groupName
        let featureID = Self.slug(name)
        var members: [(String, JSONValue)] = [
            ("uri", .string(file)),
            ("id", .string(featureID)),
            ("keyword", .string(feature?.keyword ?? (file.hasSuffix(".feature") ? "Feature" : "Stories"))),
            ("name", .string(name)),
            ("description", .string(feature?.description ?? "")),
            ("line", .int(Int64(feature?.location.line ?? 1))),
        ]
        if let tags = feature?.tags, !tags.isEmpty {
            members.append(("tags", .array(tags.map { .object([("name", .string($0.name)), ("line", .int(Int64($0.location.line)))]) })))
        }
        if isStrict { members.append(("storyrun_strict", .bool(true))) }
        members.append(("elements", .array([])))
        var head: [UInt8] = []
        JSONValue.object(members).write(into: &head)
        head.removeLast(2)  // `]}`: the elements follow
        return Feature(head: head, featureID: featureID, tagLines: Self.tagLines(feature), elements: [])
    }

    /// The line of every tag in the file, by its id.
    private static func tagLines(_ feature: GherkinFeature?) -> [Int: Int] {
        guard let feature else { return [:] }
        var lines: [Int: Int] = [:]
        func add(_ tags: [GherkinTag]) { for tag in tags { lines[tag.id] = tag.location.line } }
        func add(_ children: [GherkinFeature.Child]) {
            for child in children {
                switch child {
                case .background: break
                case .scenario(let scenario):
                    add(scenario.tags)
                    for examples in scenario.examples { add(examples.tags) }
                case .rule(let rule):
                    add(rule.tags)
                    add(rule.children)
                }
            }
        }
        add(feature.tags)
        add(feature.children)
        return lines
    }

    /// A story step with the step hooks around it, as its JSON holds them.
    private struct StepEntry {
        var step: StepResult
        var line: Int
        var isBackground: Bool
        var before: [HookResult] = []
        var after: [HookResult] = []
    }

    /// Writes the story's element, after a `background` element for its
    /// Background steps when it has any.
    private func elements(_ result: StoryResult, info: StoryFileInfo, featureID: String, tagLines: [Int: Int], into json: inout JSONWriter) {
        let story = result.story
        let place = info.place(of: story)
        var (before, after, entries) = Self.entries(of: result, info: info, place: place)
        let hasBackground = entries.contains { $0.isBackground }
        if hasBackground, let background = Self.background(of: place, in: info.feature) {
            json.beginObject()
            json.key("keyword")
            json.string(background.keyword)
            json.key("name")
            json.string(background.name)
            json.key("description")
            json.string(background.description)
            json.key("line")
            json.integer(background.location.line)
            json.key("type")
            json.string("background" as StaticString)
            Self.hooks("before", before, into: &json)
            steps(entries.lazy.filter(\.isBackground), into: &json)
            json.endObject()
            before = []
            entries = entries.filter { !$0.isBackground }
        } else if hasBackground {
            // The Background's steps first, then the scenario's.
            entries = entries.filter(\.isBackground) + entries.filter { !$0.isBackground }
        }
        json.beginObject()
        json.key("id")
        json.string(id(of: story, place: place, featureID: featureID))
        json.key("keyword")
        json.string(place?.scenario.keyword ?? (story.location.file.hasSuffix(".feature") ? "Scenario" : "Story"))
        json.key("name")
        json.string(place.map { $0.row != nil ? $0.scenario.name : story.name } ?? story.name)
        json.key("description")
        json.string(place?.scenario.description ?? "")
        json.key("line")
        json.integer(story.location.line)
        json.key("type")
        json.string("scenario" as StaticString)
        Self.tags(of: story, place: place, tagLines: tagLines, into: &json)
        Self.hooks("before", before, into: &json)
        steps(entries, into: &json)
        Self.hooks("after", after, into: &json)
        if result.attempts > 1 {
            // Not Cucumber's: the attempts of a story run again (`--retry`),
            // so `merge` keeps them.
            json.key("storyrun_attempts")
            json.integer(result.attempts)
        }
        json.endObject()
    }

    /// Splits the test steps: the Background's steps with their step hooks,
    /// then the scenario's; story hooks go to the first element.
    private static func entries(
        of result: StoryResult, info: StoryFileInfo, place: StoryFileInfo.Place?
    ) -> (before: [HookResult], after: [HookResult], entries: [StepEntry]) {
        var before: [HookResult] = []
        var after: [HookResult] = []
        var entries: [StepEntry] = []
        entries.reserveCapacity(result.testSteps.count)
        var pendingStepHooks: [HookResult] = []
        var stepIndex = 0
        for testStep in result.testSteps {
            switch testStep {
            case .hook(let hook) where hook.isStoryHook:
                if hook.isBefore { before.append(hook) } else { after.append(hook) }
            case .hook(let hook) where hook.isBefore:
                pendingStepHooks.append(hook)
            case .hook(let hook):
                // An after-step hook belongs to the step before it.
                if !entries.isEmpty { entries[entries.count - 1].after.append(hook) }
            case .step(let step):
                let isBackground = info.isBackgroundStep(stepIndex, in: place)
                let line = place?.row != nil && !isBackground ? place!.row!.location.line : step.step.location.line
                entries.append(StepEntry(step: step, line: line, isBackground: isBackground, before: pendingStepHooks))
                pendingStepHooks = []
                stepIndex += 1
            }
        }
        return (before, after, entries)
    }

    /// `"steps":[…]`.
    private func steps(_ entries: some Sequence<StepEntry>, into json: inout JSONWriter) {
        json.key("steps")
        json.beginArray()
        for entry in entries { step(entry, into: &json) }
        json.endArray()
    }

    /// `"before":[…]` or `"after":[…]`; nothing for no hooks.
    private static func hooks(_ key: StaticString, _ hooks: [HookResult], into json: inout JSONWriter) {
        guard !hooks.isEmpty else { return }
        json.key(key)
        json.value(.array(hooks.map(Self.hook)))
    }

    /// `"tags":[{"name":…,"line":…},…]`: a pickle's tags at their own
    /// lines, a `.stories` story's at the line before it.
    private static func tags(of story: Story, place: StoryFileInfo.Place?, tagLines: [Int: Int], into json: inout JSONWriter) {
        let tags: [(name: String, line: Int)] = if let pickle = place?.pickle {
            pickle.tags.map { ($0.name, tagLines[$0.astNodeID] ?? story.location.line - 1) }
        } else {
            story.tags.map { ($0, story.location.line - 1) }
        }
        guard !tags.isEmpty else { return }
        json.key("tags")
        json.beginArray()
        for tag in tags {
            json.beginObject()
            json.key("name")
            json.string(tag.name)
            json.key("line")
            json.integer(tag.line)
            json.endObject()
        }
        json.endArray()
    }

    /// `feature;scenario`, or for an outline row
    /// `feature;outline;examples;row` (the header is row 1), as Cucumber
    /// makes them: unique even when the name has no placeholder.
    private func id(of story: Story, place: StoryFileInfo.Place?, featureID: String) -> String {
        guard let place, let examples = place.examples, let row = place.row else {
            return "\(featureID);\(Self.slug(place?.scenario.name ?? story.name))"
        }
        let index = (examples.tableBody.firstIndex { $0.id == row.id } ?? 0) + 2
        return "\(featureID);\(Self.slug(place.scenario.name));\(Self.slug(examples.name));\(index)"
    }

    /// The Background whose steps a story runs first: its rule's, else its feature's.
    private static func background(of place: StoryFileInfo.Place?, in feature: GherkinFeature?) -> GherkinBackground? {
        for child in place?.rule?.children ?? [] { if case .background(let background) = child { return background } }
        for child in feature?.children ?? [] { if case .background(let background) = child { return background } }
        return nil
    }

    /// A step's object, its step hooks last (`before`, then `after`).
    private func step(_ entry: StepEntry, into json: inout JSONWriter) {
        let result = entry.step
        json.beginObject()
        json.key("keyword")
        json.string { out in
            JSONValue.writeEscaped(result.step.keyword, into: &out)
            out.append(UInt8(ascii: " "))
        }
        json.key("name")
        json.string(result.step.text)
        json.key("line")
        json.integer(entry.line)
        var members: [(String, JSONValue)] = []
        switch result.step.attachment {
        case .dataTable(let table):
            members.append(("rows", .array(table.rows.map { .object([("cells", .array($0.map(JSONValue.string)))]) })))
        case .docString(let doc):
            var docMembers: [(String, JSONValue)] = [("value", .string(doc.content))]
            if let mediaType = doc.mediaType { docMembers.append(("content_type", .string(mediaType))) }
            docMembers.append(("line", .int(Int64(doc.location.line))))
            members.append(("doc_string", .object(docMembers)))
        case nil:
            break
        }
        json.members(members + Self.attachments(result.attachments))
        json.key("match")
        json.beginObject()
        if let winner = result.match {
            json.raw { out in
                matchFragments.append(winner, into: &out) { winner, out in
                    JSONWriter.write(into: &out) { json in
                        // `displayFileAndLine`, written in place.
                        json.key("location")
                        json.string { out in
                            winner.location.withDisplayPathUTF8 { JSONValue.writeEscaped($0, into: &out) }
                            out.append(UInt8(ascii: ":"))
                            JSONValue.writeInteger(Int64(winner.location.line), into: &out)
                        }
                        json.key("pattern")
                        json.string(winner.pattern)
                    }
                }
            }
            json.key("arguments")
            Self.writeArguments(winner, layout: groupLayouts.layout(of: winner), in: result.step.text, into: &json)
        }
        json.endObject()
        json.key("result")
        Self.result(of: result, into: &json)
        if let snippet = result.snippet {
            // Not Cucumber's: the snippet for an undefined step, named for
            // the project's step class, so `merge` shows the same one.
            json.key("storyrun_snippet")
            json.string(snippet)
        }
        Self.hooks("before", entry.before, into: &json)
        Self.hooks("after", entry.after, into: &json)
        json.endObject()
    }

    /// A step's `result`: without an error written straight (a pending
    /// step has cucumber-ruby's message even without one), else
    /// ``result(status:duration:error:place:)``.
    private static func result(of result: StepResult, into json: inout JSONWriter) {
        guard result.error == nil && result.status != .pending else {
            return json.value(Self.result(status: result.status, duration: result.duration, error: result.error, place: result.step.location))
        }
        json.beginObject()
        json.key("status")
        json.string(result.status == .ambiguous ? "failed" : result.status.rawValue)
        if result.status == .passed || result.status == .failed || result.status == .ambiguous {
            json.key("duration")
            json.integer(Int64(clamping: result.duration))
        }
        json.endObject()
    }

    /// Appends a match's arguments as a JSON array: each captured text
    /// (`val`) with where its group starts in the step text (`offset`, in
    /// Unicode scalars), read from the spans the match carries; `null`
    /// for a group that took no part or that the spans do not place. Each
    /// group of a regex is an argument, nested ones too, at its own place
    /// (cucumber-ruby's rule: `match.offset(n)` for every capture).
    static func writeArguments(_ match: MatchInfo, layout: GroupLayout, in stepText: String, into json: inout JSONWriter) {
        json.beginArray()
        let textLength = stepText.utf8.count
        for index in match.arguments.indices {
            json.beginObject()
            json.key("val")
            if let text = match.arguments[index] { json.string(text) } else { json.null() }
            json.key("offset")
            if let group = layout.group(ofArgument: index, in: match), let span = match.spans[group], span.upperBound <= textLength {
                json.integer(Int64(TextOffsets.scalars(before: span.lowerBound, in: stepText)))
            } else {
                json.null()
            }
            json.endObject()
        }
        json.endArray()
    }

    static func hook(_ hook: HookResult) -> JSONValue {
        .object(attachments(hook.attachments) + [
            ("match", .object([("location", .string(hook.location.displayFileAndLine))])),
            ("result", result(status: hook.status, duration: hook.duration, error: hook.error, place: hook.location)),
        ])
    }

    /// `output` for logged text, `embeddings` for the rest (base64, as Cucumber writes them).
    private static func attachments(_ attachments: [Attachment]) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        let logs = attachments.filter { $0.mediaType == Attachment.logMediaType }
        let embeddings = attachments.filter { $0.mediaType != Attachment.logMediaType }
        if !logs.isEmpty { members.append(("output", .array(logs.map { .string($0.reportBody ?? $0.limitNote ?? "") }))) }
        if !embeddings.isEmpty {
            members.append(("embeddings", .array(embeddings.map { attachment in
                var embedding: [(String, JSONValue)] = [("mime_type", .string(attachment.mediaType))]
                embedding.append(("data", .string(attachment.isOverLimit ? "" : attachment.isText ? Data(attachment.body.utf8).base64EncodedString() : attachment.body)))
                if let name = attachment.name { embedding.append(("name", .string(name))) }
                if let note = attachment.limitNote { embedding.append(("storyrun_note", .string(note))) }
                return .object(embedding)
            })))
        }
        return members
    }

    private static func result(status: StepStatus, duration: UInt64, error: StepError?, place: SourceLocation?) -> JSONValue {
        var outcome: [(String, JSONValue)] = [("status", .string(status == .ambiguous ? "failed" : status.rawValue))]
        if let error, !(status == .pending && error.message.isEmpty) {
            let swiftPlace = error.location.map { "\n\($0.displayFileAndLine)" } ?? ""
            outcome.append(("error_message", .string(ReportText.cut(error.message) + swiftPlace + (place.map { "\n\($0.displayFileAndLine)" } ?? ""))))
        } else if status == .pending {
            // A pending step without a reason: cucumber-ruby's message.
            let swiftPlace = error?.location.map { "\n\($0.displayFileAndLine)" } ?? ""
            outcome.append(("error_message", .string("TODO (Cucumber::Pending)" + swiftPlace + (place.map { "\n\($0.displayFileAndLine)" } ?? ""))))
        }
        if status == .passed || status == .failed || status == .ambiguous {
            outcome.append(("duration", .int(Int64(clamping: duration))))
        }
        return .object(outcome)
    }

    /// A lowercase id with dashes for blanks, as Cucumber makes them.
    static func slug(_ text: String) -> String {
        // ASCII text, one pass over its bytes (a slug per story).
        var bytes: [UInt8] = []
        var text = text
        let isASCII = text.withUTF8 { source in
            guard source.allSatisfy({ $0 < 0x80 }) else { return false }
            bytes.reserveCapacity(source.count)
            var isBlank = false
            for byte in source {
                if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                    isBlank = true
                    continue
                }
                if isBlank, !bytes.isEmpty { bytes.append(UInt8(ascii: "-")) }
                isBlank = false
                bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            }
            return true
        }
        if isASCII { return String(decoding: bytes, as: UTF8.self) }
        return text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: "-")
    }
}
