import Foundation

extension MessagesReporter {
    /// A story as a Cucumber `pickle`: the ids of the pickle and its steps,
    /// and the syntax tree nodes they come from.
    struct PickleIDs {
        /// The ids as text: a synthesized pickle's.
        private var texts: (id: String, steps: [String])?
        /// The ids of a feature file's pickle as markers: the file's index
        /// and the ids' numbers in its series; or, without a marker, the
        /// ids themselves. Written straight into the stream, they are never
        /// made as text (which cost a dozen allocations a pickle).
        private var markers: (marker: IDMarker?, file: Int, id: Int, steps: [Int])?
        /// The `pickle` envelope, a line of the stream; empty for a feature
        /// file's pickle, written straight into the spill.
        var line: [UInt8]

        init(id: String, stepIDs: [String], json: JSONValue) {
            texts = (id, stepIDs)
            line = []
            MessagesReporter.line(MessagesReporter.envelope("pickle", json), into: &line)
        }

        init(id: String, stepIDs: [String], line: [UInt8]) {
            texts = (id, stepIDs)
            self.line = line
        }

        init(marker: IDMarker?, file: Int, id: Int, steps: [Int], line: [UInt8]) {
            markers = (marker, file, id, steps)
            self.line = line
        }

        /// The number of its steps.
        var stepCount: Int { texts?.steps.count ?? markers?.steps.count ?? 0 }

        /// The id of its `index`th step as text.
        func stepID(_ index: Int) -> String {
            if let markers {
                return markers.marker?.text(.file, markers.steps[index], file: markers.file) ?? String(markers.steps[index])
            }
            return texts?.steps[index] ?? ""
        }

        /// Writes its id as a JSON string.
        func writeID(into json: inout JSONWriter) {
            guard let markers else { return json.string(texts?.id ?? "") }
            Self.write(markers.id, markers, into: &json)
        }

        /// Writes the id of its `index`th step as a JSON string; `""` past its last.
        func writeStepID(_ index: Int, into json: inout JSONWriter) {
            guard let markers, index < markers.steps.count else {
                return json.string(index < stepCount ? stepID(index) : "")
            }
            Self.write(markers.steps[index], markers, into: &json)
        }

        /// Writes an id of ``markers`` as a JSON string: its marker, or the number itself.
        private static func write(_ number: Int, _ markers: (marker: IDMarker?, file: Int, id: Int, steps: [Int]), into json: inout JSONWriter) {
            if let marker = markers.marker {
                json.string { marker.write(.file, number, file: markers.file, into: &$0) }
            } else {
                json.integerString(Int64(number))
            }
        }
    }

    /// The pickle of a story of a `.feature` file, as the official
    /// compiler makes it, with the file's ids moved past `file.base`.
    /// The envelope is appended to `out` (the spill's own bytes), not made
    /// as an array of its own to be copied there; the ids' ``PickleIDs/line``
    /// is empty.
    static func pickle(_ pickle: StoryKit.Pickle, file: GherkinFile, into out: inout [UInt8]) -> PickleIDs {
        // Written straight as bytes, one per story: the text the JSON
        // writer makes of the same members, in the same order.
        JSONWriter.write(into: &out) { json in
            json.beginObject()
            json.key("pickle")
            json.beginObject()
            json.key("id")
            file.id(pickle.id, into: &json)
            json.key("uri")
            json.string(file.uri)
            json.key("location")
            json.beginObject()
            json.key("line")
            json.integer(pickle.location.line)
            json.key("column")
            json.integer(pickle.location.column)
            json.endObject()
            json.key("astNodeIds")
            json.beginArray()
            for id in pickle.astNodeIDs {
                file.id(id, into: &json)
            }
            json.endArray()
            json.key("tags")
            json.beginArray()
            for tag in pickle.tags {
                json.beginObject()
                json.key("name")
                json.string(tag.name)
                json.key("astNodeId")
                file.id(tag.astNodeID, into: &json)
                json.endObject()
            }
            json.endArray()
            json.key("name")
            json.string(pickle.name)
            json.key("language")
            json.string(pickle.language)
            json.key("steps")
            json.beginArray()
            // Each step's fields read in place: a `for` loop would copy every step.
            for index in pickle.steps.indices {
                step(pickle.steps, index, file: file, into: &json)
            }
            json.endArray()
            json.endObject()
            json.endObject()
        }
        out.append(UInt8(ascii: "\n"))
        guard let marker = file.marker else {
            // ``GherkinFile/id(_:)``'s numbers.
            return PickleIDs(
                marker: nil, file: 0, id: file.base + pickle.id, steps: pickle.steps.indices.map { file.base + pickle.steps[$0].id }, line: [])
        }
        // ``GherkinFile/id(_:)``'s markers, by number.
        return PickleIDs(marker: marker.marker, file: marker.file, id: pickle.id + 1, steps: pickle.steps.indices.map { pickle.steps[$0].id + 1 }, line: [])
    }

    /// A pickle's step, `{"id":…,"text":…,"type":…,"astNodeIds":[…],"argument":…}`.
    private static func step(_ steps: [StoryKit.Pickle.Step], _ index: Int, file: GherkinFile, into json: inout JSONWriter) {
        json.beginObject()
        json.key("id")
        file.id(steps[index].id, into: &json)
        json.key("text")
        json.string(steps[index].text)
        json.key("type")
        json.string(steps[index].type.rawValue)
        json.key("astNodeIds")
        json.beginArray()
        for id in steps[index].astNodeIDs {
            file.id(id, into: &json)
        }
        json.endArray()
        if steps[index].docString != nil || steps[index].dataTable != nil,
            let argument = argument(docString: steps[index].docString.map { ($0.content, $0.mediaType) }, dataTable: steps[index].dataTable)
        {
            json.key("argument")
            json.value(argument)
        }
        json.endObject()
    }

    static func argument(docString: (content: String, mediaType: String?)?, dataTable: [[String]]?) -> JSONValue? {
        if let table = dataTable {
            let rows = table.map { row in JSONValue.object([("cells", .array(row.map { .object([("value", .string($0))]) }))]) }
            return .object([("dataTable", .object([("rows", .array(rows))]))])
        }
        if let doc = docString {
            var members: [(String, JSONValue)] = [("content", .string(doc.content))]
            if let mediaType = doc.mediaType { members.append(("mediaType", .string(mediaType))) }
            return .object([("docString", .object(members))])
        }
        return nil
    }

    /// A story of a `.stories` file (or of a feature file that can no
    /// longer be read) as a scenario of its file's synthesized document,
    /// and its pickle.
    static func synthesized(_ story: Story, uri: String, ids: inout IDs) -> (scenario: JSONValue, pickle: PickleIDs) {
        let stepIDs = story.steps.map { _ in ids.next() }
        let tagIDs = story.tags.map { _ in ids.next() }
        let scenarioID = ids.next()
        let location: JSONValue = .object([("line", .int(Int64(story.location.line))), ("column", .int(Int64(max(1, story.location.column))))])
        var previous = "Context"
        let steps: [JSONValue] = zip(stepIDs, story.steps).map { id, step in
            var members: [(String, JSONValue)] = [
                ("id", .string(id)),
                ("location", .object([("line", .int(Int64(step.location.line))), ("column", .int(Int64(max(1, step.location.column))))])),
                ("keyword", .string(step.keyword + " ")), ("keywordType", .string(keywordType(step, previous: &previous))),
                ("text", .string(step.text)),
            ]
            if case .docString(let doc) = step.attachment {
                members.append(("docString", .object([
                    ("location", .object([("line", .int(Int64(doc.location.line))), ("column", .int(Int64(max(1, doc.location.column))))])),
                    ("content", .string(doc.content)), ("delimiter", .string(doc.delimiter)),
                ])))
            }
            return .object(members)
        }
        let tags: [JSONValue] = zip(tagIDs, story.tags).map { id, tag in
            .object([("location", .object([("line", .int(Int64(max(1, story.location.line - 1)))), ("column", .int(1))])), ("name", .string(tag)), ("id", .string(id))])
        }
        let scenario: JSONValue = .object([("scenario", .object([
            ("id", .string(scenarioID)), ("location", location), ("tags", .array(tags)),
            ("keyword", .string(uri.hasSuffix(".feature") ? "Scenario" : "Story")), ("name", .string(story.name)),
            ("description", .string("")), ("steps", .array(steps)), ("examples", .array([])),
        ]))])
        let pickleStepIDs = story.steps.map { _ in ids.next() }
        let pickleID = ids.next()
        let pickleSteps: [JSONValue] = zip(pickleStepIDs, zip(stepIDs, story.steps)).map { id, pair in
            var members: [(String, JSONValue)] = [
                ("id", .string(id)), ("text", .string(pair.1.text)),
                ("type", .string(type(pair.1.kind))), ("astNodeIds", .array([.string(pair.0)])),
            ]
            var doc: (String, String?)?
            var table: [[String]]?
            switch pair.1.attachment {
            case .docString(let value): doc = (value.content, value.mediaType)
            case .dataTable(let value): table = value.rows
            case nil: break
            }
            if let argument = argument(docString: doc, dataTable: table) { members.append(("argument", argument)) }
            return .object(members)
        }
        return (scenario, PickleIDs(id: pickleID, stepIDs: pickleStepIDs, json: .object([
            ("id", .string(pickleID)), ("uri", .string(uri)), ("location", location),
            ("astNodeIds", .array([.string(scenarioID)])),
            ("tags", .array(zip(tagIDs, story.tags).map { .object([("name", .string($1)), ("astNodeId", .string($0))]) })),
            ("name", .string(story.name)), ("language", .string("en")), ("steps", .array(pickleSteps)),
        ])))
    }

    /// The synthesized document of a `.stories` file: a feature named
    /// after its group, with its stories' scenarios as children.
    static func synthesizedDocument(uri: String, group: String, children scenarios: [JSONValue]) -> JSONValue {
        let origin: JSONValue = .object([("line", .int(1)), ("column", .int(1))])
        return .object([
            ("uri", .string(uri)),
            ("feature", .object([
                ("location", origin), ("tags", .array([])), ("language", .string("en")),
                ("keyword", .string(uri.hasSuffix(".feature") ? "Feature" : "Stories")),
                ("name", .string(group)), ("description", .string("")), ("children", .array(scenarios)),
            ])),
            ("comments", .array([])),
        ])
    }

    private static func keywordType(_ step: Step, previous: inout String) -> String {
        switch step.keyword.lowercased() {
        case "and", "but": return "Conjunction"
        default:
            let value = type(step.kind)
            previous = value
            return value
        }
    }

    static func type(_ kind: Step.Kind) -> String {
        switch kind {
        case .context: "Context"
        case .action: "Action"
        case .outcome: "Outcome"
        case .role, .unknown: "Unknown"
        }
    }

    /// IDs that count up from 1, so the stream is the same on every run.
    struct IDs {
        private(set) var last = 0
        /// Markers in place of numbers, numbered when the stream is
        /// assembled (``IDMarker``); nil for numbers.
        var marker: (marker: IDMarker, series: IDMarker.Series, file: Int)?

        mutating func next() -> String {
            last += 1
            guard let marker else { return String(last) }
            return marker.marker.text(marker.series, last, file: marker.file)
        }

        /// The next id's number (from 1), for ids written as markers by number.
        mutating func nextNumber() -> Int {
            last += 1
            return last
        }

        /// Sets aside `count` ids and returns the number before the first.
        mutating func reserve(_ count: Int) -> Int {
            defer { last += count }
            return last + 1
        }
    }

    /// The time of the run so far: the start time plus the durations seen.
    struct Clock {
        let start: Date
        /// The start in nanoseconds since 1970, worked out once (four
        /// timestamps a step).
        let startNanos: Int64
        /// Nanoseconds since the start.
        var nanoseconds: UInt64 = 0

        init(start: Date) {
            self.start = start
            startNanos = Int64((start.timeIntervalSince1970 * 1_000_000_000).rounded())
        }

        var timestamp: JSONValue {
            let total = startNanos &+ Int64(clamping: nanoseconds)
            return .object([("seconds", .int(total / 1_000_000_000)), ("nanos", .int(total % 1_000_000_000))])
        }

        static func json(_ duration: UInt64) -> JSONValue {
            .object([("seconds", .int(Int64(duration / 1_000_000_000))), ("nanos", .int(Int64(duration % 1_000_000_000)))])
        }
    }
}

extension MatchInfo {
    /// What identifies the step definition behind a match.
    struct Key: Hashable {
        var pattern: String
        var location: SourceLocation
    }

    var key: Key { Key(pattern: pattern, location: location) }
}
