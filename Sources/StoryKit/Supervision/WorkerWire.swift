import Foundation

/// The lines a parent and its worker processes exchange on pipes of their
/// own (never standard output, where user code prints).
///
/// Parent to worker, one story a line: `S SEQ LINE ATTEMPTS FINGERPRINT PATH`, the path last
/// with its control characters and `%` percent-encoded, so no file name
/// can break a line. The end of the pipe means no more stories.
///
/// Worker to parent, one line per message: most stories pass, and their
/// line is compact (`P SEQ DURATION TESTSTEP…`, each test step `s:NS` or
/// `hINDEX:NS`), which the parent turns back into a result with the matches
/// it made itself; any other result goes whole, as JSON. A story the parent
/// asked back through the shared page (``SharedPosition/giveBack(from:through:)``)
/// and the worker had not started is answered `G SEQ`. A worker that can
/// no longer open story files (its steps used up its descriptors) answers
/// the story it could not start `X SEQ "why"`, and ends.
enum WorkerWire {
    /// A message from a worker.
    enum Message {
        /// The before-run hooks have run; stories may come.
        case ready
        /// A story passed: its test steps, each a hook (by registry index)
        /// or the next story step, with its duration.
        case passed(sequence: UInt64, duration: UInt64, testSteps: [PassedTestStep])
        /// A story's whole result.
        case result(sequence: UInt64, WireResult)
        /// Test steps of a long story, plainly passed, ahead of its answer
        /// (see `WorkerWire+Parts.swift`).
        case part(sequence: UInt64, testSteps: [PassedTestStep])
        /// One test step of a long story, whole, ahead of its answer.
        case wholeStep(sequence: UInt64, TestStepResult)
        /// The worker could not find the story.
        case missing(sequence: UInt64, String)
        /// The worker could not read the story's file for want of
        /// descriptors or memory (its steps may have used them up): it
        /// started neither this story nor any after it, and ends; the text
        /// says why.
        case stopped(sequence: UInt64, String)
        /// The parent asked for the story back and the worker had not
        /// started it: it goes to another worker.
        case givenBack(sequence: UInt64)
        /// A before-run or after-run hook ran.
        case runHook(HookResult)
        /// A diagnostic (an ambiguous step, say).
        case diagnostic(Diagnostic)
        /// The definitions, by id, that won a match in this worker.
        case used([Int])
        /// The after-run hooks have run; the worker exits.
        case end
        /// A line that is no message (said how, for the note): the worker
        /// never writes one, so a step wrote to its channel.
        case invalid(String)
    }

    /// A line that is no message, as a note names it: its first bytes,
    /// control characters escaped.
    static func describe(_ line: UnsafeBufferPointer<UInt8>) -> String {
        let start = String(decoding: line.prefix(60), as: UTF8.self).unicodeScalars
            .map { $0.value < 0x20 || $0.value == 0x7F ? $0.escaped(asASCII: true) : String($0) }.joined()
        return "a line that is no message of a worker's (\"\(start)\"\(line.count > 60 ? "…" : ""))"
    }

    /// A test step of a plainly passing story: a hook (by registry index),
    /// or the next story step with the definition that ran it and the texts
    /// it captured.
    struct PassedTestStep {
        var hook: Int?
        var duration: UInt64
        var definition: Int = 0
        var arguments: [String?] = []
    }

    /// A story result without its story, which the parent has.
    struct WireResult: Codable {
        var status: StoryStatus
        var testSteps: [TestStepResult]
        var duration: UInt64
        var earlierAttempts: [StoryAttempt]
        var wasInterrupted: Bool

        init(_ result: StoryResult) {
            status = result.status
            testSteps = result.testSteps
            duration = result.duration
            earlierAttempts = result.earlierAttempts
            wasInterrupted = result.wasInterrupted
        }

        /// The result for the story the parent planned; nil when it does
        /// not fit it: a story step answered for each of its steps, in
        /// order (by their lines), and none failed in a story said to pass.
        func result(for story: Story) -> StoryResult? {
            var stepCount = 0
            for testStep in testSteps {
                switch testStep {
                case .step(let step):
                    guard stepCount < story.steps.count, step.step.location == story.steps[stepCount].location,
                        status != .passed || step.status != .failed
                    else { return nil }
                    stepCount += 1
                case .hook(let hook):
                    guard status != .passed || hook.status != .failed else { return nil }
                }
            }
            guard stepCount == story.steps.count else { return nil }
            var result = StoryResult(story: story, status: status, testSteps: testSteps, duration: duration, earlierAttempts: earlierAttempts)
            result.wasInterrupted = wasInterrupted
            return result
        }
    }

    // MARK: Requests

    /// Appends the request line for a story to `bytes`; `attemptsUsed`
    /// counts the attempts at it that ended their worker (`--retry`);
    /// `path` is its file as ``requestPath(_:)`` writes it (the parent
    /// sends a batch of stories of one file, and escapes its name once).
    static func appendRequest(sequence: UInt64, story: Story, attemptsUsed: Int, path: [UInt8], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "S"))
        bytes.append(0x20)
        appendDecimal(sequence, to: &bytes)
        bytes.append(0x20)
        appendDecimal(UInt64(story.location.line), to: &bytes)
        bytes.append(0x20)
        appendDecimal(UInt64(attemptsUsed), to: &bytes)
        bytes.append(0x20)
        appendDecimal(fingerprint(of: story), to: &bytes)
        bytes.append(0x20)
        bytes.append(contentsOf: path)
        bytes.append(0x0A)
    }

    /// A story file's path as a request line writes it: its control
    /// characters and `%` percent-encoded, so no file name can break a line.
    static func requestPath(_ path: String) -> [UInt8] {
        Array(escape(path).utf8)
    }

    /// Appends a number's decimal digits, with no String between.
    static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(truncatingIfNeeded: value % 10) + 0x30
                value /= 10
                count += 1
            } while value > 0
            // Rebased, not a slice: appended with one copy.
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(20 - count)...]))
        }
    }

    /// What a worker runs of a story, in one number both processes compute
    /// alike (FNV-1a, 63 bits): its name, tags and steps, each step's
    /// keyword, text, line and doc string or table. A worker reads the
    /// story's file again; when the file changed after the parent read it,
    /// the story at that line may be another, and the parent would report
    /// its own steps with the results of steps it never planned.
    static func fingerprint(of story: Story) -> UInt64 {
        var hash = StoryHash()
        hash.add(story.name)
        hash.add(story.tags.count)
        for tag in story.tags { hash.add(tag) }
        hash.add(story.steps.count)
        for step in story.steps {
            hash.add(step.keyword)
            hash.add(step.text)
            hash.add(step.location.line)
            switch step.attachment {
            case nil: hash.add(0)
            case .docString(let docString):
                hash.add(1)
                hash.add(docString.content)
                hash.add(docString.mediaType ?? "")
            case .dataTable(let table):
                hash.add(2)
                hash.add(table.rows.count)
                for row in table.rows {
                    hash.add(row.count)
                    for cell in row { hash.add(cell) }
                }
            }
        }
        return hash.final
    }

    /// The hash behind ``fingerprint(of:)``: eight bytes at a time, each
    /// word xor-ed in and multiplied by an odd number (a bijection, so one
    /// changed word always changes the hash), a text's length ending it.
    /// Byte by byte, with the hash a variable its closures shared, it was
    /// 4% of a run's CPU.
    private struct StoryHash {
        private static let prime: UInt64 = 0x100_0000_01B3
        private var value: UInt64 = 0xCBF2_9CE4_8422_2325

        mutating func add(_ number: Int) {
            value = (value ^ UInt64(bitPattern: Int64(number))) &* Self.prime
        }

        mutating func add(_ text: String) {
            // In place: a native string's bytes, with no copy of the string
            // (nor a retain of it); any other, copied once.
            let start = value
            value = text.utf8.withContiguousStorageIfAvailable { Self.mix(start, $0) } ?? Self.mix(start, Array(text.utf8))
            add(text.utf8.count)
        }

        private static func mix(_ start: UInt64, _ bytes: [UInt8]) -> UInt64 {
            bytes.withUnsafeBufferPointer { mix(start, $0) }
        }

        private static func mix(_ start: UInt64, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            guard let base = UnsafeRawPointer(bytes.baseAddress) else { return start }
            var hash = start
            var offset = 0
            while offset + 8 <= bytes.count {
                hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime
                offset += 8
            }
            guard offset < bytes.count else { return hash }
            var last: UInt64 = 0
            for index in offset..<bytes.count { last |= UInt64(bytes[index]) << (8 * UInt64(index - offset)) }
            return (hash ^ last) &* prime
        }

        /// Mixed, so that a difference in the top bit, which a request
        /// drops, shows in the others.
        var final: UInt64 {
            var hash = value
            hash ^= hash >> 29
            hash &*= 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 32
            return hash & UInt64(Int.max)
        }
    }

    /// Reads a request line from its bytes: the sequence number, line,
    /// attempts used, the story's fingerprint (``fingerprint(of:)``) and
    /// the path's bytes as sent (see ``path(_:)``).
    static func parseRequest(bytes line: UnsafeBufferPointer<UInt8>)
        -> (sequence: UInt64, line: Int, attemptsUsed: Int, fingerprint: UInt64, path: UnsafeBufferPointer<UInt8>)?
    {
        guard line.count >= 2, line[0] == UInt8(ascii: "S"), line[1] == 0x20 else { return nil }
        var index = 2
        /// A number that fits an Int, and the blank after it.
        func number() -> UInt64? {
            guard let value = Self.number(in: line, at: &index), value <= UInt64(Int.max),
                index < line.count, line[index] == 0x20
            else { return nil }
            index += 1
            return value
        }
        guard let sequence = number(), let number1 = number(), let attemptsUsed = number(), let fingerprint = number() else { return nil }
        return (sequence, Int(number1), Int(attemptsUsed), fingerprint, UnsafeBufferPointer(rebasing: line[index...]))
    }

    /// The decimal number at `index`, which moves past its digits; nil
    /// when there are none or it does not fit.
    private static func number(in bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> UInt64? {
        var value: UInt64 = 0
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= 0x30 && byte <= 0x39 else { break }
            let (product, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = product.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflow1 && !overflow2 else { return nil }
            value = sum
            index += 1
        }
        return index > start ? value : nil
    }

    /// A request's path from its bytes, percent-decoded.
    static func path(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        unescape(Substring(String(decoding: bytes, as: UTF8.self)))
    }

    private static func escape(_ path: String) -> String {
        guard path.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "%") || $0 == 0x7F }) else { return path }
        var bytes: [UInt8] = []
        for byte in path.utf8 {
            if byte < 0x20 || byte == UInt8(ascii: "%") || byte == 0x7F {
                bytes += Array(String(format: "%%%02X", byte).utf8)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func unescape(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "%"), input.count >= 2,
                let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A captured text in a compact line: `~` for none, `%_` for an empty
    /// one (written as nothing, a step's only capture read back as no
    /// capture at all: `(.*)` matching nothing lost its argument in the
    /// reports of a supervised run); space, comma, colon, `%`, `~` and
    /// control characters percent-encoded.
    static func appendArgument(_ text: String?, to bytes: inout [UInt8]) {
        guard let text else {
            bytes.append(UInt8(ascii: "~"))
            return
        }
        if text.isEmpty {
            bytes.append(UInt8(ascii: "%"))
            bytes.append(UInt8(ascii: "_"))
            return
        }
        // Nearly always nothing to escape: the text's bytes in one copy
        // (a small string's too), not one append a byte.
        let copied = text.utf8.withContiguousStorageIfAvailable { text -> Bool in
            guard !text.contains(where: needsEscape) else { return false }
            bytes.append(contentsOf: text)
            return true
        }
        guard copied != true else { return }
        func hex(_ digit: UInt8) -> UInt8 { digit < 10 ? 0x30 + digit : 0x37 + digit }
        for byte in text.utf8 {
            if needsEscape(byte) {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex(byte >> 4))
                bytes.append(hex(byte & 0x0F))
            } else {
                bytes.append(byte)
            }
        }
    }

    /// Whether a captured text's byte is percent-encoded in a compact line.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F || byte == 0x2C || byte == 0x3A || byte == 0x25 || byte == 0x7E
    }

    private static func unescapeArgument(_ text: Substring) -> String? {
        text == "~" ? nil : text == "%_" ? "" : unescape(text)
    }

    /// Reads a passed story's line (`SEQ DURATION TESTSTEP…`) byte by
    /// byte: the parent reads one per story, so this is its hot path. Nil
    /// sends the line to the general reader (which rejects it, or reads an
    /// escaped argument).
    static func parsePassed(_ bytes: UnsafeBufferPointer<UInt8>) -> Message? {
        var index = 0
        let end = bytes.count
        func number() -> UInt64? { Self.number(in: bytes, at: &index) }
        func skip(_ byte: UInt8) -> Bool {
            guard index < end, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let sequence = number(), skip(0x20), let duration = number() else { return nil }
        var testSteps: [PassedTestStep] = []
        testSteps.reserveCapacity(8)
        while index < end {
            guard skip(0x20), index < end else { return nil }
            if skip(UInt8(ascii: "h")) {
                guard let hook = number(), hook <= UInt64(Int.max), skip(0x3A), let nanoseconds = number() else { return nil }
                testSteps.append(PassedTestStep(hook: Int(hook), duration: nanoseconds))
                continue
            }
            guard skip(UInt8(ascii: "s")), skip(0x3A), let nanoseconds = number(), skip(0x3A),
                let definition = number(), definition <= UInt64(Int.max), skip(0x3A)
            else { return nil }
            var arguments: [String?] = []
            var start = index
            // One array of the right size: its texts end at a blank or the line's end.
            var commas = 0
            while start < end && bytes[start] != 0x20 {
                if bytes[start] == 0x2C { commas += 1 }
                start += 1
            }
            if start > index { arguments.reserveCapacity(commas + 1) }
            start = index
            var hasArgument = false
            while true {
                let atEnd = index == end || bytes[index] == 0x20
                if atEnd || bytes[index] == 0x2C {
                    if hasArgument || index > start || !atEnd || !arguments.isEmpty {
                        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
                        if text.contains(UInt8(ascii: "%")) { return nil }
                        arguments.append(text.count == 1 && text[0] == UInt8(ascii: "~") ? nil : String(decoding: text, as: UTF8.self))
                    }
                    if atEnd { break }
                    index += 1
                    start = index
                    hasArgument = true
                } else {
                    index += 1
                }
            }
            testSteps.append(PassedTestStep(hook: nil, duration: nanoseconds, definition: Int(definition), arguments: arguments))
        }
        return .passed(sequence: sequence, duration: duration, testSteps: testSteps)
    }

    /// Reads a message line from its bytes: a passed story's line at once,
    /// any other through ``parse(_:)-(Substring)``; nil for a line that is
    /// not one.
    static func parse(bytes line: UnsafeBufferPointer<UInt8>) -> Message? {
        if line.count >= 2, line[0] == UInt8(ascii: "P"), line[1] == 0x20,
            let message = parsePassed(UnsafeBufferPointer(rebasing: line[2...]))
        {
            return message
        }
        if line.count >= 2, line[0] == UInt8(ascii: "T"), line[1] == 0x20 { return parsePart(line) }
        return parse(Substring(String(decoding: line, as: UTF8.self)))
    }

    // MARK: Messages

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    static func json(_ value: some Encodable) -> String {
        // JSON puts no raw line end in a string, so one value stays one line.
        String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }

    /// The line for a story's result: compact when it passed plainly.
    static func line(sequence: UInt64, result: StoryResult, hookIndex: (HookResult) -> Int?, compact: Bool) -> String {
        var text: [UInt8] = []
        if compact, passedLine(sequence: sequence, result: result, hookIndex: hookIndex, into: &text) {
            return String(decoding: text, as: UTF8.self)
        }
        return "J \(sequence) \(json(WireResult(result)))\n"
    }

    /// Writes the compact line of a story that passed plainly into `text`
    /// (emptied first), byte by byte: a worker writes one per story. False
    /// when the story did not pass plainly: its result goes whole, as JSON.
    static func passedLine(sequence: UInt64, result: StoryResult, hookIndex: (HookResult) -> Int?, into text: inout [UInt8]) -> Bool {
        text.removeAll(keepingCapacity: true)
        guard result.status == .passed, result.earlierAttempts.isEmpty, !result.wasInterrupted else { return false }
        func append(_ value: some BinaryInteger) {
            appendDecimal(UInt64(value), to: &text)
        }
        text.append(UInt8(ascii: "P"))
        text.append(0x20)
        append(sequence)
        text.append(0x20)
        append(result.duration)
        // By index, each test step read in place (a `for` loop would copy
        // every step's result).
        for index in result.testSteps.indices {
            guard appendPlain(result.testSteps[index], hookIndex: hookIndex, into: &text) else { return false }
        }
        text.append(0x0A)
        return true
    }

    /// Appends a plainly passed test step as a compact line writes it
    /// (` s:NS:DEFINITION:ARGUMENTS` or ` hINDEX:NS`); false, with nothing
    /// appended, for any other.
    static func appendPlain(_ testStep: TestStepResult, hookIndex: (HookResult) -> Int?, into text: inout [UInt8]) -> Bool {
        switch testStep {
        case .step(let step):
            // `let match = step.match` would copy the match.
            guard step.status == .passed, step.attachments.isEmpty, let id = step.match?.definitionID, id >= 0,
                step.alsoMatched.isEmpty
            else { return false }
            text.append(0x20)
            text.append(UInt8(ascii: "s"))
            text.append(0x3A)
            appendDecimal(step.duration, to: &text)
            text.append(0x3A)
            appendDecimal(UInt64(id), to: &text)
            text.append(0x3A)
            step.withArguments { arguments in
                for index in arguments.indices {
                    if index > 0 { text.append(0x2C) }
                    appendArgument(arguments[index], to: &text)
                }
            }
        case .hook(let hook):
            guard hook.status == .passed, hook.attachments.isEmpty, let index = hookIndex(hook), index >= 0 else { return false }
            text.append(0x20)
            text.append(UInt8(ascii: "h"))
            appendDecimal(UInt64(index), to: &text)
            text.append(0x3A)
            appendDecimal(hook.duration, to: &text)
        }
        return true
    }

    static func line(_ message: Message) -> String {
        switch message {
        case .ready: "R\n"
        case .end: "E\n"
        case .runHook(let hook): "H \(json(hook))\n"
        case .diagnostic(let diagnostic): "D \(json(diagnostic))\n"
        case .used(let ids): "U \(ids.map(String.init).joined(separator: ","))\n"
        case .missing(let sequence, let text): "M \(sequence) \(json(text))\n"
        case .stopped(let sequence, let text): "X \(sequence) \(json(text))\n"
        case .givenBack(let sequence): "G \(sequence)\n"
        case .passed, .result, .part, .wholeStep: preconditionFailure("story results go through line(sequence:result:hookIndex:compact:)")
        case .invalid: preconditionFailure("a worker never writes a line that is no message")
        }
    }

    /// Reads a message line; nil for a line that is not one.
    static func parse(_ line: Substring) -> Message? {
        // By bytes: every message kind is one ASCII letter and a space.
        let bytes = line.utf8
        guard let byte = bytes.first else { return nil }
        let kind = Character(Unicode.Scalar(byte))
        var rest: Substring = ""
        if bytes.count >= 2, bytes[bytes.index(after: bytes.startIndex)] == 0x20 { rest = Substring(bytes.dropFirst(2)) }
        var decoder: JSONDecoder { JSONDecoder() }
        switch kind {
        case "R": return .ready
        case "E": return .end
        case "P":
            // Split by bytes, not Characters: a separator followed by a
            // combining mark (an argument that starts with one) is one
            // Character, and would not split.
            let parts = rest.utf8.split(separator: 0x20).map { Substring($0) }
            guard parts.count >= 2, let sequence = UInt64(parts[0]), let duration = UInt64(parts[1]) else { return nil }
            var testSteps: [PassedTestStep] = []
            testSteps.reserveCapacity(parts.count - 2)
            for part in parts.dropFirst(2) {
                let fields = part.utf8.split(separator: 0x3A, maxSplits: 3, omittingEmptySubsequences: false).map { Substring($0) }
                guard fields.count >= 2, let nanoseconds = UInt64(fields[1]) else { return nil }
                if fields[0] == "s", fields.count == 4, let definition = Int(fields[2]) {
                    let arguments = fields[3].isEmpty ? [] : fields[3].utf8.split(separator: 0x2C, omittingEmptySubsequences: false)
                        .map { unescapeArgument(Substring($0)) }
                    testSteps.append(PassedTestStep(hook: nil, duration: nanoseconds, definition: definition, arguments: arguments))
                } else if fields[0].first == "h", let index = Int(fields[0].dropFirst()) {
                    testSteps.append(PassedTestStep(hook: index, duration: nanoseconds))
                } else {
                    return nil
                }
            }
            return .passed(sequence: sequence, duration: duration, testSteps: testSteps)
        case "J", "M", "X":
            guard let space = rest.firstIndex(of: " "), let sequence = UInt64(rest[..<space]) else { return nil }
            let data = Data(rest[rest.index(after: space)...].utf8)
            if kind == "M" {
                return (try? decoder.decode(String.self, from: data)).map { .missing(sequence: sequence, $0) }
            }
            if kind == "X" {
                return (try? decoder.decode(String.self, from: data)).map { .stopped(sequence: sequence, $0) }
            }
            return (try? decoder.decode(WireResult.self, from: data)).map { .result(sequence: sequence, $0) }
        case "K":
            guard let space = rest.firstIndex(of: " "), let sequence = UInt64(rest[..<space]) else { return nil }
            let data = Data(rest[rest.index(after: space)...].utf8)
            return (try? decoder.decode(TestStepResult.self, from: data)).map { .wholeStep(sequence: sequence, $0) }
        case "H": return (try? decoder.decode(HookResult.self, from: Data(rest.utf8))).map { .runHook($0) }
        case "D": return (try? decoder.decode(Diagnostic.self, from: Data(rest.utf8))).map { .diagnostic($0) }
        case "U": return .used(rest.split(separator: ",").compactMap { Int($0) })
        case "G": return UInt64(rest).map { .givenBack(sequence: $0) }
        default: return nil
        }
    }
}
