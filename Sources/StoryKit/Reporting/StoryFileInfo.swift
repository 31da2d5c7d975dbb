import Foundation

/// What reports know of a story file beyond its stories: the Feature and
/// Rule names and descriptions, backgrounds, outlines and examples, the
/// syntax tree with its ids, and the official pickles.
///
/// The file is read and parsed again when a report is written, once per
/// file, so running stays as lean as it is: stories carry nothing a report
/// alone needs.
///
/// Unchecked `Sendable`: everything is set in `init` and never changed,
/// but for ``lines``, made under a lock; so the report threads share one.
final class StoryFileInfo: @unchecked Sendable {
    /// Where a story sits in its file's syntax tree.
    ///
    /// A class: every report looks up each story's place, and a copy of
    /// a struct of syntax tree nodes and a pickle retained and released
    /// each of their strings and arrays (dozens a story); a reference is
    /// one.
    final class Place: Sendable {
        let rule: GherkinRule?
        let scenario: GherkinScenario
        let examples: GherkinExamples?
        let row: GherkinTableRow?
        /// The official pickle of the story.
        let pickle: Pickle

        /// The id in the syntax tree of the step the `index`th step of the
        /// pickle was compiled from; nil past its last step.
        func stepSourceID(_ index: Int) -> Int? {
            index < pickle.steps.count ? pickle.steps[index].source.id : nil
        }

        init(rule: GherkinRule?, scenario: GherkinScenario, examples: GherkinExamples? = nil, row: GherkinTableRow? = nil, pickle: Pickle) {
            self.rule = rule
            self.scenario = scenario
            self.examples = examples
            self.row = row
            self.pickle = pickle
        }
    }

    /// The path as the stories name it.
    let path: String
    /// The file's text; empty when it cannot be read.
    let text: String
    /// The file's lines, for the places of table cells: made when first
    /// asked for (few files have tables), under a lock (threads share the file).
    var lines: [Substring] {
        linesLock.withLock {
            if let madeLines { return madeLines }
            let lines = Self.lines(of: text)
            madeLines = lines
            return lines
        }
    }

    /// A text's lines as `split(omittingEmptySubsequences: false,
    /// whereSeparator: \.isNewline)` makes them, found in its UTF-8 bytes:
    /// split as Characters, a file with tables cost the Messages report
    /// tens of milliseconds. A line ends at LF, CR, CR LF (one end), VT,
    /// FF, NEL, U+2028 or U+2029, the characters that are newlines; each is
    /// a Character of its own (grapheme clusters always break around
    /// them), so the lines are the same.
    static func lines(of text: String) -> [Substring] {
        let ranges: [Range<Int>]? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var ranges: [Range<Int>] = []
            var start = 0
            var index = 0
            while index < bytes.count {
                // The length in bytes of a line end here, 0 when there is none.
                let length: Int
                switch bytes[index] {
                case 0x0A, 0x0B, 0x0C: length = 1
                case 0x0D: length = index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
                case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x85: length = 2
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    length = 3
                default: length = 0
                }
                guard length > 0 else {
                    index += 1
                    continue
                }
                ranges.append(start..<index)
                index += length
                start = index
            }
            ranges.append(start..<bytes.count)
            return ranges
        }
        guard let ranges else { return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) }
        let utf8 = text.utf8
        return ranges.map { text[utf8.index(utf8.startIndex, offsetBy: $0.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: $0.upperBound)] }
    }
    private var madeLines: [Substring]?
    private let linesLock = NSLock()
    /// The syntax tree of a `.feature` file; nil for `.stories` files and
    /// files that no longer parse.
    let document: GherkinDocument?
    /// How many ids the tree and pickles use (from 0).
    let idCount: Int
    /// The stories' places, by the line a story starts at.
    private var places: [Int: Place] = [:]
    /// The ids of steps written in a Background.
    private(set) var backgroundStepIDs: Set<Int> = []

    /// Reads and parses the file, or takes `parse`: the text and syntax
    /// tree the run made of it when it read the file for its stories.
    private init(path: String, parse: RecentParses.Parse? = nil) {
        self.path = path
        let read = parse?.text ?? (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        // Changed since the run read its stories: not the text that ran
        // (see ``FileStamps``); reported from the stories, as a file that
        // can no longer be read.
        text = FileStamps.isChanged(path) ? "" : read
        guard FeatureFile.isFeature(path), !text.isEmpty else {
            document = nil
            idCount = 0
            return
        }
        let (parsed, errors, nextID) = parse.map { ($0.document, [], $0.nextID) } ?? GherkinParser.parse(text, markdown: FeatureFile.isMarkdown(path))
        guard let parsed, errors.isEmpty, let feature = parsed.feature else {
            document = nil
            idCount = 0
            return
        }
        document = parsed
        let pickles = PickleCompiler.compile(parsed, uri: SourceLocation.relativePath(path), firstID: nextID)
        idCount = (pickles.map(\.id).max() ?? nextID - 1) + 1
        var byLine: [Int: Pickle] = [:]
        // Sized once: grown a story at a time, they were rehashed over and over.
        byLine.reserveCapacity(pickles.count)
        places.reserveCapacity(pickles.count)
        for pickle in pickles { byLine[pickle.location.line] = pickle }
        func add(_ scenario: GherkinScenario, rule: GherkinRule?) {
            if scenario.examples.isEmpty {
                if let pickle = byLine[scenario.location.line] {
                    places[scenario.location.line] = Place(rule: rule, scenario: scenario, pickle: pickle)
                }
            }
            for examples in scenario.examples {
                for row in examples.tableBody {
                    if let pickle = byLine[row.location.line] {
                        places[row.location.line] = Place(rule: rule, scenario: scenario, examples: examples, row: row, pickle: pickle)
                    }
                }
            }
        }
        for child in feature.children {
            switch child {
            case .background(let background): backgroundStepIDs.formUnion(background.steps.map(\.id))
            case .scenario(let scenario): add(scenario, rule: nil)
            case .rule(let rule):
                for ruleChild in rule.children {
                    switch ruleChild {
                    case .background(let background): backgroundStepIDs.formUnion(background.steps.map(\.id))
                    case .scenario(let scenario): add(scenario, rule: rule)
                    case .rule: break
                    }
                }
            }
        }
    }

    /// The feature, for a `.feature` file that parses.
    var feature: GherkinFeature? { document?.feature }

    /// Where a story of this file sits in the syntax tree.
    func place(of story: Story) -> Place? {
        places[story.location.line]
    }

    /// The place of the story that starts at a line, if one does.
    func place(atLine line: Int) -> Place? {
        places[line]
    }

    /// Whether the `index`th step of a story comes from a Background.
    func isBackgroundStep(_ index: Int, of story: Story) -> Bool {
        isBackgroundStep(index, in: backgroundStepIDs.isEmpty ? nil : place(of: story))
    }

    /// Whether the `index`th step of the story at `place` (its
    /// ``place(of:)``, looked up once for all its steps) comes from a
    /// Background. The step's id is read in place: taking the pickle out
    /// of the place copied it, for every step of every report.
    func isBackgroundStep(_ index: Int, in place: Place?) -> Bool {
        guard !backgroundStepIDs.isEmpty, let place, let id = place.stepSourceID(index) else { return false }
        return backgroundStepIDs.contains(id)
    }

    /// The columns where the cells of the table row on a line begin (from
    /// 1, in Unicode scalars), as the official parser gives them.
    func cellColumns(line: Int) -> [Int] {
        // The lines taken once: each use of ``lines`` takes its lock.
        let lines = lines
        guard line >= 1, line <= lines.count else { return [] }
        // An ASCII line (nearly all) read as bytes, each byte a scalar:
        // no array of its scalars made for each row.
        if let columns = lines[line - 1].utf8.withContiguousStorageIfAvailable(Self.asciiCellColumns) ?? nil { return columns }
        let scalars = Array(lines[line - 1].unicodeScalars)
        var columns: [Int] = []
        var index = 0
        while index < scalars.count, scalars[index] != "|" { index += 1 }
        while index < scalars.count {
            // At a `|`: the next cell starts at its first non-blank.
            index += 1
            var start = index
            while start < scalars.count, scalars[start] == " " || scalars[start] == "\t" { start += 1 }
            var end = start
            while end < scalars.count, scalars[end] != "|" {
                end += scalars[end] == "\\" ? 2 : 1
            }
            guard end < scalars.count else { break }
            columns.append(start == end ? index + 1 : start + 1)
            index = end
        }
        return columns
    }

    /// ``cellColumns(line:)`` of an ASCII line, found the same way in its
    /// bytes; nil when the line is not ASCII.
    private static func asciiCellColumns(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int]? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var columns: [Int] = []
        var index = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "|") { index += 1 }
        while index < bytes.count {
            // At a `|`: the next cell starts at its first non-blank.
            index += 1
            var start = index
            while start < bytes.count, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "|") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard end < bytes.count else { break }
            columns.append(start == end ? index + 1 : start + 1)
            index = end
        }
        return columns
    }

    /// The lines of a table's rows, from its first: a row may be followed by
    /// blank and comment lines before the next.
    func tableRowLines(from first: Int, count: Int) -> [Int] {
        // The lines taken once: each use of ``lines`` takes its lock.
        let lines = lines
        let isMarkdown = isMarkdown
        var result: [Int] = []
        var line = first
        while result.count < count, line <= lines.count {
            var text = lines[line - 1]
            // The line's first character after its blanks, read as bytes;
            // as Characters only when it is not ASCII, or a non-ASCII byte
            // follows it (which may join it into another Character).
            let lead: UInt8?? = text.withUTF8 { bytes in
                var index = 0
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                guard index < bytes.count else { return .some(nil) }
                guard bytes[index] < 0x80, index + 1 == bytes.count || bytes[index + 1] < 0x80 else { return nil }
                return .some(bytes[index])
            }
            if isMarkdown, Self.isMarkdownSeparator(text) {
                // `| --- |` in Gherkin in Markdown: not a row.
                line += 1
                continue
            }
            if let lead {
                if lead == UInt8(ascii: "|") { result.append(line) }
                else if !(lead == nil || lead == UInt8(ascii: "#")) { break }
            } else {
                let trimmed = text.drop { $0 == " " || $0 == "\t" }
                if trimmed.hasPrefix("|") { result.append(line) }
                else if !(trimmed.isEmpty || trimmed.hasPrefix("#")) { break }
            }
            line += 1
        }
        while result.count < count { result.append(first + result.count) }
        return result
    }

    /// Whether the file is Gherkin in Markdown.
    private var isMarkdown: Bool { FeatureFile.isMarkdown(path) }

    /// Whether a line is a Markdown table's header separator (a cell of
    /// dashes, a colon at either end or none), which is no row.
    static func isMarkdownSeparator(_ line: some StringProtocol) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("|") else { return false }
        return trimmed.split(separator: "|").contains { cell in
            var text = cell.trimmingCharacters(in: .whitespaces)[...]
            if text.hasPrefix(":") { text = text.dropFirst() }
            if text.hasSuffix(":") { text = text.dropLast() }
            return !text.isEmpty && text.allSatisfy { $0 == "-" }
        }
    }

    /// The files the reports of one run read last, shared by those
    /// reports, on every report thread, so each file is read and parsed
    /// once a run, not once per report or per thread.
    ///
    /// Stories finish file by file, so a few files suffice, but the report
    /// threads can be thousands of stories apart: each report that reads
    /// files is a ``Reader``, and a file is kept until every reader has
    /// asked for a later one (and the last few files are always kept, for
    /// stories that finish out of order), at most ``limit`` files and
    /// ``byteLimit`` bytes of text (large files are parsed again rather
    /// than held: memory stays flat).
    ///
    /// Unchecked `Sendable`: the list is read and changed under a lock,
    /// held while a file is parsed, so a thread that wants the same file
    /// waits for it instead of parsing it too.
    final class Recent: @unchecked Sendable {
        /// The files, oldest first, each with its number in the order they were read.
        private var infos: [(number: Int, info: StoryFileInfo)] = []
        private var nextNumber = 0
        /// The number of the last file each reader asked for (-1: none yet).
        private var readerPositions: [Int] = []
        private let lock = NSLock()
        /// How many files are always kept.
        static let size = 4
        /// How many files are kept at most, however far a reader lags.
        static let limit = 64
        /// How much text the files kept past the last ``size`` may hold.
        static let byteLimit = 8 << 20
        /// The text the kept files hold, in bytes.
        private var keptBytes = 0
        /// The files as the run read and parsed them, taken from here
        /// rather than read and parsed again; nil: every file is read.
        private let parses: RecentParses?

        /// Files to be read as reports ask for them, taken from `parses`
        /// when it still holds them.
        init(parses: RecentParses? = nil) {
            self.parses = parses
        }

        /// A report that reads these files as its stories finish.
        struct Reader {
            let files: Recent
            let number: Int?

            func info(_ path: String) -> StoryFileInfo {
                files.info(path, reader: number)
            }

            /// Says the reader is done with a story of `path` without
            /// reading the file (JUnit, for all but an outline's rows), so
            /// that it holds no file the other readers are done with.
            func passed(_ path: String) {
                files.passed(path, reader: number)
            }
        }

        /// A new reader of these files.
        func reader() -> Reader {
            lock.withLock {
                readerPositions.append(-1)
                return Reader(files: self, number: readerPositions.count - 1)
            }
        }

        /// The file's info, read now unless it is kept.
        func info(_ path: String, reader: Int? = nil) -> StoryFileInfo {
            // The files that go are freed after the lock is let go (their
            // trees and pickles are thousands of objects), not while the
            // other report thread waits for it.
            var gone: [(number: Int, info: StoryFileInfo)] = []
            return lock.withLock {
                let found: (number: Int, info: StoryFileInfo)
                // From the newest: a story's file is nearly always the last one read.
                if let known = infos.last(where: { $0.info.path == path }) {
                    found = known
                } else {
                    found = (nextNumber, StoryFileInfo(path: path, parse: parses?.take(path)))
                    nextNumber += 1
                    infos.append(found)
                    keptBytes += found.info.text.utf8.count
                }
                if let reader { readerPositions[reader] = max(readerPositions[reader], found.number) }
                trim(into: &gone)
                return found.info
            }
        }

        /// A reader is past `path` without reading it: past the file if
        /// another reader has read it, else past every file read so far
        /// (the others read it later, or not at all).
        func passed(_ path: String, reader: Int?) {
            guard let reader else { return }
            var gone: [(number: Int, info: StoryFileInfo)] = []
            lock.withLock {
                let number = infos.last(where: { $0.info.path == path })?.number ?? nextNumber - 1
                readerPositions[reader] = max(readerPositions[reader], number)
                trim(into: &gone)
            }
        }

        /// Lets go of the files every reader has gone past, but for the
        /// last few (call under the lock; `gone` is freed after it).
        private func trim(into gone: inout [(number: Int, info: StoryFileInfo)]) {
            let slowest = readerPositions.min() ?? nextNumber
            while infos.count > Self.size, infos[0].number < slowest || infos.count > Self.limit || keptBytes > Self.byteLimit {
                gone.append(infos.removeFirst())
                keptBytes -= gone[gone.count - 1].info.text.utf8.count
            }
        }
    }

    struct Cache {
        private var files: [String: StoryFileInfo] = [:]

        mutating func info(_ path: String) -> StoryFileInfo {
            if let known = files[path] { return known }
            let info = StoryFileInfo(path: path)
            files[path] = info
            return info
        }
    }
}
