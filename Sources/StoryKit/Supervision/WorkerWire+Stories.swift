/// The stories a parent sends its worker: each planned story whole, so that
/// the worker runs and reports exactly what the parent planned and never
/// reads a story file (which a step may have changed, or which a worker
/// whose steps leaked its descriptors could not open).
///
/// Lines of tab-separated fields, each text with its control characters
/// (tab and line end among them), `%` and DEL percent-encoded, so a field
/// is found with no escape inside it and most are copied as they are:
///
/// - `F PATH GROUP`: the file of the stories after it and its group's name,
///   sent at the start of each batch and when the file changes, so a batch
///   of one file's stories names its path once.
/// - `S SEQ ATTEMPTS LINE COLUMN ID NAME GROUP TAGS… STEPS…`: a story, its
///   tags and steps each a count and then their fields. A step is its
///   keyword, kind (its raw value's first letter), text, line, column, file
///   and what is written under it (nothing, `d` and a doc string's content,
///   media type, fence, line, column and file, or `t` and a table's line,
///   column, file and rows, each a count and its cells).
/// - `s SEQ FIRST STEPS…`: the next steps of a long story (issue 29, "Long
///   stories"), from its step FIRST (counted from 0). A story of more than
///   ``WorkerWire/partSize`` steps goes as its `S` line with its step count
///   and only its first `partSize` steps, then lines of the next steps, at
///   most `partSize` each (a count and their fields), straight after it.
///   The parent writes each line to the pipe as soon as it is made, and the
///   worker reads and matches each as it comes, so neither waits for the
///   other to go through a story of a million steps
///   (``SupervisedRun/sendBatch(to:)``, ``StorySource``).
///   The worker has a story only once every step is there: a part for
///   another story or out of order (not starting at the first step not yet
///   read), one with more steps than are due, a damaged part, or any other
///   line before the last part refuses the story, as a damaged `S` line is
///   refused (never run, never answered), and the lines after it are read
///   as they would be.
///
/// A field that is a lone `%` (which no escaped text can be) says "as
/// usual": the id is the story's `file:line`, the group the file's, a file
/// the story's (or the step's), a doc string has no media type.
/// `attemptsUsed` counts the attempts at the story that ended their worker
/// (`--retry`).
extension WorkerWire {
    /// A file's line, for the stories after it; `path` as
    /// ``requestPath(_:)`` writes it (the parent escapes a file's path once).
    static func appendFile(path: [UInt8], group: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "F"))
        bytes.append(0x09)
        bytes.append(contentsOf: path)
        appendField(group, to: &bytes)
        bytes.append(0x0A)
    }

    /// A story file's path as a request writes it.
    static func requestPath(_ path: String) -> [UInt8] {
        var bytes: [UInt8] = []
        appendEscaped(path, where: isEscapedInRequest, to: &bytes)
        return bytes
    }

    /// Appends the lines of a planned story, whose file (`file`, with its
    /// `group`) the last file line named: its `S` line, and for a story of
    /// more than ``partSize`` steps an `s` line for each further part.
    /// Before each `s` line, `partMade` is given the bytes made so far (it
    /// may write them and empty them: a long story's lines need never be in
    /// one buffer at once); the last line is left in `bytes`.
    static func appendRequest(
        sequence: UInt64, story: Story, attemptsUsed: Int, file: (path: String, group: String), to bytes: inout [UInt8],
        partMade: (inout [UInt8]) -> Void = { _ in }
    ) {
        let steps = story.steps
        appendStoryLine(sequence: sequence, story: story, attemptsUsed: attemptsUsed, file: file, to: &bytes)
        var start = min(steps.count, partSize)
        while start < steps.count {
            partMade(&bytes)
            let end = min(steps.count, start + partSize)
            bytes.append(UInt8(ascii: "s"))
            appendNumber(sequence, to: &bytes)
            appendNumber(UInt64(start), to: &bytes)
            appendNumber(UInt64(end - start), to: &bytes)
            for index in start..<end { appendStep(steps[index], file: story.location.file, to: &bytes) }
            bytes.append(0x0A)
            start = end
        }
    }

    /// A story's `S` line: its step count, and its first steps (at most
    /// ``partSize`` of them).
    private static func appendStoryLine(
        sequence: UInt64, story: Story, attemptsUsed: Int, file: (path: String, group: String), to bytes: inout [UInt8]
    ) {
        bytes.append(UInt8(ascii: "S"))
        appendNumber(sequence, to: &bytes)
        appendNumber(UInt64(attemptsUsed), to: &bytes)
        let location = story.location
        appendNumber(UInt64(location.line), to: &bytes)
        appendNumber(UInt64(location.column), to: &bytes)
        appendField(story.id == location.fileAndLine ? nil : story.id, to: &bytes)
        appendField(story.name, to: &bytes)
        appendField(story.groupName == file.group ? nil : story.groupName, to: &bytes)
        let tags = story.tags
        appendNumber(UInt64(tags.count), to: &bytes)
        for tag in tags { appendField(tag, to: &bytes) }
        let steps = story.steps
        appendNumber(UInt64(steps.count), to: &bytes)
        for index in 0..<min(steps.count, partSize) { appendStep(steps[index], file: location.file, to: &bytes) }
        bytes.append(0x0A)
    }

    private static func appendStep(_ step: Step, file: String, to bytes: inout [UInt8]) {
        appendField(step.keyword, to: &bytes)
        bytes.append(0x09)
        bytes.append(step.kind.rawValue.utf8.first!)
        appendField(step.text, to: &bytes)
        appendLocation(step.location, file: file, to: &bytes)
        switch step.attachment {
        case nil:
            bytes.append(0x09)
        case .docString(let docString):
            bytes.append(0x09)
            bytes.append(UInt8(ascii: "d"))
            appendField(docString.content, to: &bytes)
            appendField(docString.mediaType, to: &bytes)
            appendField(docString.delimiter, to: &bytes)
            appendLocation(docString.location, file: step.location.file, to: &bytes)
        case .dataTable(let table):
            bytes.append(0x09)
            bytes.append(UInt8(ascii: "t"))
            appendLocation(table.location, file: step.location.file, to: &bytes)
            appendNumber(UInt64(table.rows.count), to: &bytes)
            for row in table.rows {
                appendNumber(UInt64(row.count), to: &bytes)
                for cell in row { appendField(cell, to: &bytes) }
            }
        }
    }

    private static func appendLocation(_ location: SourceLocation, file: String, to bytes: inout [UInt8]) {
        appendNumber(UInt64(location.line), to: &bytes)
        appendNumber(UInt64(location.column), to: &bytes)
        appendField(location.file == file ? nil : location.file, to: &bytes)
    }

    private static func appendNumber(_ value: UInt64, to bytes: inout [UInt8]) {
        bytes.append(0x09)
        appendDecimal(value, to: &bytes)
    }

    /// A tab and the text, escaped; a lone `%` for nil ("as usual").
    private static func appendField(_ text: String?, to bytes: inout [UInt8]) {
        bytes.append(0x09)
        guard let text else {
            bytes.append(UInt8(ascii: "%"))
            return
        }
        appendEscaped(text, where: isEscapedInRequest, to: &bytes)
    }

    /// Whether a request field's byte is percent-encoded: control
    /// characters (tab and newline among them), `%` and DEL.
    @inline(__always)
    private static func isEscapedInRequest(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x25 || byte == 0x7F
    }
}

/// Reads the parent's request lines back into stories (see
/// ``WorkerWire``'s request lines), keeping the file the last file line
/// named (its stories share its path's string) and a long story until its
/// last part.
struct StoryRequests {
    private var file = ""
    private var group = ""
    /// A long story whose `S` line has come and some of its parts not.
    private var unfinished: Unfinished?

    /// A story as its lines come: its fields, and its steps so far (a
    /// story is made once they are all there: its fields are shared, and
    /// copied on each change).
    private struct Unfinished {
        var sequence: UInt64
        var attemptsUsed: Int
        var id: String
        var name: String
        var tags: [String]
        var location: SourceLocation
        var groupName: String
        var steps: [Step]
        var stepCount: Int
    }

    /// A story sent, with its sequence number and attempts used, once all
    /// its steps are read; nil for a file's line (which it keeps), for a
    /// part of a story with more to come, and for a line that is not a
    /// request. `arrived` is given each line's steps as they are read,
    /// indexed as in their story (a story's first part starts at 0), so
    /// they may be matched while the rest are on their way; the steps of a
    /// story refused before its end are never returned.
    mutating func read(
        _ line: UnsafeBufferPointer<UInt8>, arrived: (ArraySlice<Step>) -> Void = { _ in }
    ) -> (sequence: UInt64, attemptsUsed: Int, story: Story)? {
        // Any line but the next part refuses a story left unfinished. (Taken
        // out, so its steps are appended to in place, not copied.)
        var unfinished = self.unfinished.take()
        guard line.count >= 2, line[1] == 0x09 else { return nil }
        var fields = RequestFields(line)
        switch line[0] {
        case UInt8(ascii: "F"):
            guard let path = fields.text(), let group = fields.text(), fields.isAtEnd else { return nil }
            (file, self.group) = (path, group)
            return nil
        case UInt8(ascii: "S"):
            guard let story = readStory(&fields) else { return nil }
            return finish(story, from: 0, arrived: arrived)
        case UInt8(ascii: "s"):
            guard var story = unfinished.take(), fields.number() == story.sequence, fields.count() == story.steps.count,
                let count = fields.count(), count > 0, count <= story.stepCount - story.steps.count
            else { return nil }
            let start = story.steps.count
            for _ in 0..<count {
                guard let step = fields.step(file: story.location.file) else { return nil }
                story.steps.append(step)
            }
            guard fields.isAtEnd else { return nil }
            return finish(story, from: start, arrived: arrived)
        default:
            return nil
        }
    }

    /// The story, when every step is there; otherwise kept for its next
    /// part. Its steps from `start` on (the line's) go to `arrived` first.
    private mutating func finish(
        _ unfinished: consuming Unfinished, from start: Int, arrived: (ArraySlice<Step>) -> Void
    ) -> (sequence: UInt64, attemptsUsed: Int, story: Story)? {
        arrived(unfinished.steps[start...])
        guard unfinished.steps.count == unfinished.stepCount else {
            self.unfinished = unfinished
            return nil
        }
        let story = Story(
            id: unfinished.id, name: unfinished.name, tags: unfinished.tags, location: unfinished.location, steps: unfinished.steps,
            groupName: unfinished.groupName)
        return (unfinished.sequence, unfinished.attemptsUsed, story)
    }

    /// An `S` line's story, with its first steps (all of them, or
    /// ``WorkerWire/partSize`` of a story that has more).
    private func readStory(_ fields: inout RequestFields) -> Unfinished? {
        guard let sequence = fields.number(), let attemptsUsed = fields.count(),
            let location = fields.location(file: file), let id = fields.text(or: location.fileAndLine),
            let name = fields.text(), let groupName = fields.text(or: group), let tags = fields.texts(),
            let stepCount = fields.count()
        else { return nil }
        let first = min(stepCount, WorkerWire.partSize)
        var steps: [Step] = []
        steps.reserveCapacity(first)
        for _ in 0..<first {
            guard let step = fields.step(file: file) else { return nil }
            steps.append(step)
        }
        guard fields.isAtEnd else { return nil }
        return Unfinished(
            sequence: sequence, attemptsUsed: attemptsUsed, id: id, name: name, tags: tags, location: location, groupName: groupName,
            steps: steps, stepCount: stepCount)
    }
}

/// The tab-separated fields of a request line, read in turn.
private struct RequestFields {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next field starts (past the line's kind).
    private var index = 2

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether every field was read.
    var isAtEnd: Bool { index == bytes.count + 1 }

    private mutating func field() -> UnsafeBufferPointer<UInt8>? {
        guard index <= bytes.count else { return nil }
        let start = index
        while index < bytes.count && bytes[index] != 0x09 { index += 1 }
        defer { index += 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<index])
    }

    mutating func number() -> UInt64? {
        guard let field = field() else { return nil }
        var at = 0
        guard let value = WorkerWire.number(in: field, at: &at), at == field.count else { return nil }
        return value
    }

    /// A number that fits an Int.
    mutating func count() -> Int? {
        guard let value = number(), value <= UInt64(Int.max) else { return nil }
        return Int(value)
    }

    /// A text, or nil (`.some(nil)`) for a lone `%` ("as usual").
    mutating func optionalText() -> String?? {
        guard let field = field() else { return nil }
        if field.count == 1 && field[0] == UInt8(ascii: "%") { return .some(nil) }
        guard field.contains(UInt8(ascii: "%")) else { return .some(String(decoding: field, as: UTF8.self)) }
        return .some(Self.unescape(field))
    }

    /// A text; `usual` for a lone `%`.
    mutating func text(or usual: @autoclosure () -> String) -> String? {
        guard let text = optionalText() else { return nil }
        return text ?? usual()
    }

    mutating func text() -> String? {
        optionalText() ?? nil
    }

    /// A count and that many texts.
    mutating func texts() -> [String]? {
        guard let count = count() else { return nil }
        var texts: [String] = []
        texts.reserveCapacity(min(count, bytes.count))
        for _ in 0..<count {
            guard let text = text() else { return nil }
            texts.append(text)
        }
        return texts
    }

    mutating func location(file: String) -> SourceLocation? {
        guard let line = count(), let column = count() else { return nil }
        return SourceLocation(file: file, line: line, column: column)
    }

    /// A step's location: its line, column and file (`file` as usual).
    private mutating func steppedLocation(file: String) -> SourceLocation? {
        guard var location = location(file: file), let path = text(or: file) else { return nil }
        location.file = path
        return location
    }

    mutating func step(file: String) -> Step? {
        guard let keyword = text(), let kindField = field(), kindField.count == 1,
            let kind = Self.kinds.first(where: { $0.rawValue.utf8.first == kindField[0] }),
            let text = text(), let location = steppedLocation(file: file), let attached = field(), attached.count <= 1
        else { return nil }
        guard let tag = attached.first else { return Step(keyword: keyword, kind: kind, text: text, location: location) }
        let attachment: StepAttachment
        switch tag {
        case UInt8(ascii: "d"):
            guard let content = self.text(), let mediaType = optionalText(), let delimiter = self.text(),
                let place = steppedLocation(file: location.file)
            else { return nil }
            attachment = .docString(DocString(content: content, mediaType: mediaType, delimiter: delimiter, location: place))
        case UInt8(ascii: "t"):
            guard let place = steppedLocation(file: location.file), let count = count() else { return nil }
            var rows: [[String]] = []
            rows.reserveCapacity(min(count, bytes.count))
            for _ in 0..<count {
                guard let row = texts() else { return nil }
                rows.append(row)
            }
            attachment = .dataTable(DataTable(rows: rows, location: place))
        default:
            return nil
        }
        return Step(keyword: keyword, kind: kind, text: text, location: location, attachment: attachment)
    }

    private static let kinds: [Step.Kind] = [.role, .context, .action, .outcome, .unknown]

    /// A field's text, percent-decoded.
    private static func unescape(_ field: UnsafeBufferPointer<UInt8>) -> String {
        func digit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x37
            case 0x61...0x66: byte - 0x57
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.count)
        var index = 0
        while index < field.count {
            if field[index] == UInt8(ascii: "%"), index + 2 < field.count, let high = digit(field[index + 1]),
                let low = digit(field[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(field[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
