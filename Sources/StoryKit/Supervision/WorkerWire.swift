import Foundation

/// The lines a parent and its worker processes exchange on pipes of their
/// own (never standard output, where user code prints).
///
/// Parent to worker, the planned stories themselves (see
/// ``appendRequest(sequence:story:attemptsUsed:file:to:)``): the worker
/// reads no story file. The end of the pipe means no more stories.
///
/// Worker to parent, one line per message: most stories pass, and their
/// line is compact (`P SEQ DURATION TESTSTEP…`, each test step `s:NS` or
/// `hINDEX:NS`), which the parent turns back into a result with the matches
/// it made itself; any other result goes whole, as JSON. A story the parent
/// asked back through the shared page (``SharedPosition/giveBack(from:through:)``)
/// and the worker had not started is answered `G SEQ`. A worker whose
/// steps left it no descriptor to open answers the story it did not start
/// `X SEQ "why"`, and ends.
enum WorkerWire {
    /// A message from a worker.
    enum Message {
        /// The before-run hooks have run; stories may come. With the
        /// worker's build id (``BuildID``), which the parent checks.
        case ready(build: String?)
        /// A story passed: its test steps, each a hook (by registry index)
        /// or the next story step, with its duration.
        case passed(sequence: UInt64, duration: UInt64, testSteps: [PassedTestStep])
        /// A story that did not pass, but whose test steps are all plain
        /// (passed, skipped, undefined; see ``PassedTestStep``): its
        /// status, and its test steps as a passed story's line has them.
        case compact(sequence: UInt64, status: StoryStatus, duration: UInt64, testSteps: [PassedTestStep])
        /// A story's whole result.
        case result(sequence: UInt64, WireResult)
        /// Test steps of a long story, plainly passed, ahead of its answer
        /// (see `WorkerWire+Parts.swift`).
        case part(sequence: UInt64, testSteps: [PassedTestStep])
        /// One test step of a long story, whole, ahead of its answer.
        case wholeStep(sequence: UInt64, TestStepResult)
        /// A story the worker ran left it no descriptor to open (a step
        /// leaked them): it started neither this story nor any after it,
        /// and ends, so that no later story fails for it; the text says why.
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

    /// A plain test step: a passed hook (by registry index), or the next
    /// story step, passed or skipped, with the definition it matched and
    /// the texts it captured, or undefined (`u`: the parent checks that no
    /// definition matches it, and tells it as the runner would).
    struct PassedTestStep {
        var hook: Int?
        var duration: UInt64
        var definition: Int = 0
        var arguments: [String?] = []
        /// Where the step's groups lie (``GroupSpans``), as the worker
        /// says: the parent checks them (``WorkerClaims``).
        var spans: GroupSpans = .none
        /// `.passed`, `.skipped` (`k`) or `.undefined` (`u`).
        var status: StepStatus = .passed
    }

    /// What the plain test steps of a compact answer allow its status to
    /// be: a passed story's are all passed, an undefined story has an
    /// undefined step, a skipped one none (a story that failed or was
    /// pending has a test step that is not plain).
    struct CompactVerdict {
        private var hasUndefined = false
        private var hasSkipped = false

        mutating func note(_ testSteps: [PassedTestStep]) {
            for testStep in testSteps where testStep.status != .passed {
                if testStep.status == .undefined { hasUndefined = true } else { hasSkipped = true }
            }
        }

        func fits(_ status: StoryStatus) -> Bool {
            switch status {
            case .passed: !hasUndefined && !hasSkipped
            case .undefined: hasUndefined
            case .skipped: !hasUndefined
            case .failed, .pending: false
            }
        }
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

    /// The decimal number at `index`, which moves past its digits; nil
    /// when there are none or it does not fit.
    static func number(in bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> UInt64? {
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
        appendEscaped(text, where: needsEscape, to: &bytes)
    }

    /// Appends a text with the bytes `needsEscape` picks percent-encoded
    /// (`%HH`): a compact line's captured texts, a request's fields.
    @inline(__always)
    static func appendEscaped(_ text: String, where needsEscape: (UInt8) -> Bool, to bytes: inout [UInt8]) {
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
            if skip(UInt8(ascii: "u")) {
                testSteps.append(PassedTestStep(hook: nil, duration: 0, definition: -1, status: .undefined))
                continue
            }
            let status: StepStatus = skip(UInt8(ascii: "k")) ? .skipped : .passed
            guard status == .skipped || skip(UInt8(ascii: "s")), skip(0x3A), let nanoseconds = number(), skip(0x3A),
                let definition = number(), definition <= UInt64(Int.max), skip(0x3A)
            else { return nil }
            var arguments: [String?] = []
            var start = index
            // One array of the right size: its texts end at a blank or the line's end.
            var commas = 0
            while start < end && bytes[start] != 0x20 && bytes[start] != 0x3A {
                if bytes[start] == 0x2C { commas += 1 }
                start += 1
            }
            if start > index { arguments.reserveCapacity(commas + 1) }
            start = index
            var hasArgument = false
            while true {
                let atEnd = index == end || bytes[index] == 0x20 || bytes[index] == 0x3A
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
            var spans = GroupSpans.none
            if skip(0x3A) {
                var bounds: [Int32] = []
                repeat {
                    let isNegative = skip(UInt8(ascii: "-"))
                    guard let value = number(), value <= UInt64(Int32.max) else { return nil }
                    bounds.append(isNegative ? -Int32(value) : Int32(value))
                } while skip(0x2C)
                guard let read = GroupSpans(bounds: bounds) else { return nil }
                spans = read
            }
            testSteps.append(PassedTestStep(
                hook: nil, duration: nanoseconds, definition: Int(definition), arguments: arguments, spans: spans, status: status))
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
        if line.count >= 2, line[0] == UInt8(ascii: "J") || line[0] == UInt8(ascii: "K") || line[0] == UInt8(ascii: "X"), line[1] == 0x20 {
            return parseWhole(line)
        }
        if line.count >= 2, line[0] == UInt8(ascii: "C"), line[1] == 0x20 { return parseCompact(line) }
        return parse(Substring(String(decoding: line, as: UTF8.self)))
    }

    // MARK: Messages

    /// A value as JSON, through StoryKit's own encoder (``JSONValueEncoder``,
    /// by the value's `Codable` conformance): JSON puts no raw line end
    /// in a string, so one value stays one line. `null` for a value that
    /// cannot be JSON (a number that is not finite), which the parent
    /// refuses.
    static func json(_ value: some Encodable) -> String {
        String(decoding: (try? JSONValueEncoder.bytes(value)) ?? Array("null".utf8), as: UTF8.self)
    }

    /// The line `KIND SEQ JSON` (`J`, `K`, `X`) of a value, in bytes.
    static func jsonLine(_ kind: UInt8, sequence: UInt64, _ value: some Encodable) -> [UInt8] {
        var line: [UInt8] = [kind, 0x20]
        appendDecimal(sequence, to: &line)
        line.append(0x20)
        let start = line.count
        do {
            try JSONValueEncoder.write(value, into: &line)
        } catch {
            line.removeSubrange(start...)
            line.append(contentsOf: "null".utf8)
        }
        line.append(0x0A)
        return line
    }

    /// The line for a story's result: compact when its test steps are all
    /// plain.
    static func line(sequence: UInt64, result: StoryResult, hookIndex: (HookResult) -> Int?, compact: Bool) -> [UInt8] {
        var text: [UInt8] = []
        if compact, compactLine(sequence: sequence, result: result, hookIndex: hookIndex, into: &text) {
            return text
        }
        return jsonLine(UInt8(ascii: "J"), sequence: sequence, WireResult(result))
    }

    /// Writes the compact line of a story whose test steps are all plain
    /// into `text` (emptied first), byte by byte: a worker writes one per
    /// story. `P SEQ DURATION TESTSTEP…` for a story that passed, `C STATUS
    /// SEQ DURATION TESTSTEP…` for one that did not (undefined, skipped).
    /// False for any other: its result goes whole, as JSON.
    static func compactLine(sequence: UInt64, result: StoryResult, hookIndex: (HookResult) -> Int?, into text: inout [UInt8]) -> Bool {
        text.removeAll(keepingCapacity: true)
        guard result.earlierAttempts.isEmpty, !result.wasInterrupted else { return false }
        func append(_ value: some BinaryInteger) {
            appendDecimal(UInt64(value), to: &text)
        }
        appendStart(status: result.status, into: &text)
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

    /// A compact line's start: `P ` for a passed story, `C STATUS ` for
    /// any other.
    static func appendStart(status: StoryStatus, into text: inout [UInt8]) {
        if status == .passed {
            text.append(UInt8(ascii: "P"))
        } else {
            text.append(UInt8(ascii: "C"))
            text.append(0x20)
            text.append(contentsOf: status.rawValue.utf8)
        }
        text.append(0x20)
    }

    /// Reads a `C` line: a status, then a passed story's line.
    static func parseCompact(_ line: UnsafeBufferPointer<UInt8>) -> Message? {
        let rest = UnsafeBufferPointer(rebasing: line[2...])
        guard let space = rest.firstIndex(of: 0x20),
            let status = StoryStatus(rawValue: String(decoding: UnsafeBufferPointer(rebasing: rest[..<space]), as: UTF8.self)),
            status != .passed
        else { return nil }
        let body = UnsafeBufferPointer(rebasing: rest[(space + 1)...])
        let read = parsePassed(body) ?? parse(Substring("P " + String(decoding: body, as: UTF8.self)))
        guard case .passed(let sequence, let duration, let testSteps)? = read else { return nil }
        return .compact(sequence: sequence, status: status, duration: duration, testSteps: testSteps)
    }

    /// Appends a plain test step as a compact line writes it (` s:NS:DEFINITION:ARGUMENTS[:SPANS]`
    /// passed, ` k:…` skipped, ` u` undefined, ` hINDEX:NS` a passed hook);
    /// false, with nothing appended, for any other; with `passedOnly`,
    /// for any that did not pass.
    static func appendPlain(_ testStep: TestStepResult, hookIndex: (HookResult) -> Int?, passedOnly: Bool = false, into text: inout [UInt8]) -> Bool {
        switch testStep {
        case .step(let step):
            guard step.attachments.isEmpty, step.error == nil, step.alsoMatched.isEmpty else { return false }
            if step.status == .undefined, !passedOnly, step.match == nil, step.duration == 0 {
                // The parent tells it from its own registry.
                text.append(0x20)
                text.append(UInt8(ascii: "u"))
                return true
            }
            // `let match = step.match` would copy the match.
            guard step.status == .passed || (step.status == .skipped && !passedOnly), let id = step.match?.definitionID, id >= 0
            else { return false }
            text.append(0x20)
            text.append(UInt8(ascii: step.status == .passed ? "s" : "k"))
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
            // The groups' spans, `:START,END,…` (-1 for a group that took no part).
            let spans = step.matchSpans
            if !spans.isEmpty {
                text.append(0x3A)
                for group in 0..<spans.count {
                    if group > 0 { text.append(0x2C) }
                    if let span = spans[group] {
                        appendDecimal(UInt64(span.lowerBound), to: &text)
                        text.append(0x2C)
                        appendDecimal(UInt64(span.upperBound), to: &text)
                    } else {
                        text.append(contentsOf: "-1,-1".utf8)
                    }
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
        case .ready(let build): build.map { "R \($0)\n" } ?? "R\n"
        case .end: "E\n"
        case .runHook(let hook): "H \(json(hook))\n"
        case .diagnostic(let diagnostic): "D \(json(diagnostic))\n"
        case .used(let ids): "U \(ids.map(String.init).joined(separator: ","))\n"
        case .stopped(let sequence, let text): String(decoding: jsonLine(UInt8(ascii: "X"), sequence: sequence, text), as: UTF8.self)
        case .givenBack(let sequence): "G \(sequence)\n"
        case .passed, .compact, .result, .part, .wholeStep: preconditionFailure("story results go through line(sequence:result:hookIndex:compact:)")
        case .invalid: preconditionFailure("a worker never writes a line that is no message")
        }
    }

    /// Reads a `J`, `K` or `X` line (`KIND SEQ JSON`) from its bytes; nil
    /// when its JSON is not a value of its kind.
    static func parseWhole(_ line: UnsafeBufferPointer<UInt8>) -> Message? {
        var index = 2
        guard line.count > 2, let sequence = number(in: line, at: &index), index < line.count, line[index] == 0x20 else { return nil }
        let json = Array(UnsafeBufferPointer(rebasing: line[(index + 1)...]))
        switch line[0] {
        case UInt8(ascii: "J"): return decoded(WireResult.self, json).map { .result(sequence: sequence, $0) }
        case UInt8(ascii: "K"): return decoded(TestStepResult.self, json).map { .wholeStep(sequence: sequence, $0) }
        case UInt8(ascii: "X"): return decoded(String.self, json).map { .stopped(sequence: sequence, $0) }
        default: return nil
        }
    }

    /// A value read from JSON text through StoryKit's own reader and
    /// decoder (``JSONValueDecoder``); nil for text that is not JSON or
    /// not a `T` (the parent refuses the line).
    static func decoded<T: Decodable>(_ type: T.Type, _ json: [UInt8]) -> T? {
        try? JSONValueDecoder.decode(type, fromUTF8: json)
    }

    /// Reads a message line; nil for a line that is not one.
    static func parse(_ line: Substring) -> Message? {
        // By bytes: every message kind is one ASCII letter and a space.
        let bytes = line.utf8
        guard let byte = bytes.first else { return nil }
        let kind = Character(Unicode.Scalar(byte))
        var rest: Substring = ""
        if bytes.count >= 2, bytes[bytes.index(after: bytes.startIndex)] == 0x20 { rest = Substring(bytes.dropFirst(2)) }
        switch kind {
        case "R": return .ready(build: rest.isEmpty ? nil : String(rest))
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
                if part == "u" {
                    testSteps.append(PassedTestStep(hook: nil, duration: 0, definition: -1, status: .undefined))
                    continue
                }
                let fields = part.utf8.split(separator: 0x3A, maxSplits: 4, omittingEmptySubsequences: false).map { Substring($0) }
                guard fields.count >= 2, let nanoseconds = UInt64(fields[1]) else { return nil }
                if fields[0] == "s" || fields[0] == "k", fields.count == 4 || fields.count == 5, let definition = Int(fields[2]) {
                    let arguments = fields[3].isEmpty ? [] : fields[3].utf8.split(separator: 0x2C, omittingEmptySubsequences: false)
                        .map { unescapeArgument(Substring($0)) }
                    var spans = GroupSpans.none
                    if fields.count == 5 {
                        let bounds = fields[4].split(separator: ",", omittingEmptySubsequences: false).map { Int32($0) }
                        guard !bounds.contains(nil), let read = GroupSpans(bounds: bounds.map { $0! }) else { return nil }
                        spans = read
                    }
                    testSteps.append(PassedTestStep(
                        hook: nil, duration: nanoseconds, definition: definition, arguments: arguments, spans: spans,
                        status: fields[0] == "k" ? .skipped : .passed))
                } else if fields[0].first == "h", let index = Int(fields[0].dropFirst()) {
                    testSteps.append(PassedTestStep(hook: index, duration: nanoseconds))
                } else {
                    return nil
                }
            }
            return .passed(sequence: sequence, duration: duration, testSteps: testSteps)
        case "J", "X", "K": return Array(line.utf8).withUnsafeBufferPointer { parseWhole($0) }
        case "H": return decoded(HookResult.self, Array(rest.utf8)).map { .runHook($0) }
        case "D": return decoded(Diagnostic.self, Array(rest.utf8)).map { .diagnostic($0) }
        case "U": return .used(rest.split(separator: ",").compactMap { Int($0) })
        case "G": return UInt64(rest).map { .givenBack(sequence: $0) }
        default: return nil
        }
    }
}
