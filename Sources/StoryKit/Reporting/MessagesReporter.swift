import Foundation

/// Writes Cucumber Messages: one JSON envelope per line (NDJSON), the stream
/// Cucumber's own tools (HTML formatter, messages viewers) read.
///
/// The stream holds `meta`, a `source` per story file, a `pickle` per story,
/// a `parameterType` per parameter type the step classes defined, a
/// `stepDefinition` per definition (every one in registration order when
/// the registry is known, else those the results name) and a `hook` per
/// hook, then the run:
/// `testRunStarted`, a `testCase` per story, and per story
/// `testCaseStarted`, `testStepStarted`/`testStepFinished` per step and
/// `testCaseFinished`, and finally `testRunFinished`. Timestamps are the
/// start time plus the durations the events carry, so they are stable when
/// the clock is injected. IDs count up from 1.
///
/// The stream is written as the run goes: each story's pickle and test case
/// go to a spill file (`ReportSpill`) when it finishes, with their ids as
/// markers (`IDMarker`), and the file is assembled in the order above
/// when the run is over, the markers numbered. Memory holds the places of
/// those fragments, the definitions and hooks, and nothing per step. (A
/// story that runs twice, its file given twice, has a pickle per run and
/// each test case names its own.)
public struct MessagesReporter: Reporter {
    /// The version of the Cucumber Messages protocol written.
    static let protocolVersion = "27.0.0"

    private let path: String
    private let startTime: Date
    private var summary = RunSummary()
    /// After-run hooks, written last.
    private var afterRunHooks: [HookResult] = []
    /// How many run hooks failed (what else failed the run is the rest
    /// of the summary's failed hooks: ``RunOutcomeNote``).
    private var failedRunHooks = 0
    /// The stories not run that the stream gives as pickles with no test
    /// case: a reader learns them there, not from the run's note.
    private var pickledNotRun: Set<SourceLocation> = []
    /// Story files the run rejected: a `parseError` each problem.
    private var rejectedFiles: [RejectedFile] = []
    /// The run's definitions, hooks and parameter types; nil in `merge`,
    /// which knows only what the results name.
    private let registry: StepRegistry?
    /// Whether `--strict` is on: then undefined and ambiguous steps make
    /// the run unsuccessful, as they do Cucumber's.
    private let isStrict: Bool
    /// Whether the stories ran last first (`--order reverse`): the files,
    /// and each file's pickles, are then written in reverse order of
    /// their stories' end, which is the order they were read, as Cucumber
    /// writes them.
    var isReversed = false

    /// What is written as the run goes, with ids as markers.
    private var spill: ReportSpill?
    let marker = IDMarker()
    /// The story files in the order their first story finished.
    private var files: [SourceFile] = []
    private var fileIndex: [String: Int] = [:]
    /// The file of the last story and its index in ``files``.
    private var lastFile: (path: String, index: Int)?
    /// The story files, read once for all their stories (and all reports).
    var fileInfos = StoryFileInfo.Recent().reader()
    /// Step definitions and hooks in the order they are written, each
    /// with its number in its series.
    private var definitions: [(key: MatchInfo.Key, number: Int)] = []
    var definitionNumbers: [MatchInfo.Key: Int] = [:]
    private var hooks: [(hook: HookResult, tags: String?, name: String?)] = []
    private var hookNumbers: [HookKey: Int] = [:]
    /// For each of the registry's hooks (the first of ``hooks``), how many
    /// definitions were registered before it: the stream interleaves them
    /// in registration order.
    private var hooksDefinitionsBefore: [Int] = []
    let registered: [MatchInfo.Key: StepDefinition]
    /// The registry's definitions by id, each with its number (and its
    /// regex's fast matcher): a step's match finds them without hashing
    /// its pattern and place.
    private var byID: [KnownDefinition?] = []
    /// ``byID``'s definitions alone, to check a match's id without copying its entry.
    private var definitionsByID: [StepDefinition?] = []
    /// The ids of the run, from `testRunStarted`'s.
    var runIDs: IDs
    var clock: Clock
    /// Before-run hooks and test cases, in the order they ran.
    private var run: [RunPart] = []
    /// Each story's `testCase` envelope, apart from its attempts: the
    /// stream gives every test case after the before-run hooks and before
    /// the first `testCaseStarted`, as Cucumber's does.
    private var testCases: [ReportSpill.Place] = []
    /// How many parts of ``run`` came before the first story's.
    private var partsBeforeStories: Int?
    /// The bytes of the test case being written, kept for the next.
    private var caseBuffer: [UInt8] = []

    /// A before-run hook's or test case's part of the run in the spill:
    /// its envelopes, then (a test case's) the ``StepsRecord`` of its
    /// attempts, `record` bytes long (0 when they are envelopes too).
    private struct RunPart {
        var place: ReportSpill.Place
        var record = 0
    }

    /// One story file's part of the stream: its source, syntax tree and pickles.
    private struct SourceFile {
        var uri: String
        /// `source`, and for a feature file `gherkinDocument`, envelopes.
        var head: ReportSpill.Place
        /// A `.stories` file's document, around its scenarios: nil for a feature file.
        var synthesized: (prefix: [UInt8], suffix: [UInt8])?
        var scenarios: [ReportSpill.Place] = []
        var pickles: [ReportSpill.Place] = []
        /// The file's ids so far (all of a feature file's at once).
        var ids: IDs
        /// Whether its pickles are the official ones of a feature file.
        var isFeature: Bool
        /// The number of its first id, when it was known as the file was
        /// first seen (``nextFileBase``): its ids are then written as
        /// numbers, not markers, and its part of the stream is copied as
        /// it is when the stream is assembled.
        var base: Int?
    }

    /// The number of the next file's first id, while every file so far is
    /// a feature file, whose ids are all counted when it is first seen;
    /// nil after any other (a `.stories` file counts its ids as its
    /// stories finish, so the files after it learn their numbers only at
    /// the end).
    private var nextFileBase: Int? = 1

    /// Creates a reporter that writes to a path when the run is over.
    /// - Parameters:
    ///   - path: The file to write.
    ///   - startTime: The wall-clock time the run started.
    public init(path: String, startTime: Date) {
        self.init(path: path, startTime: startTime, registry: nil)
    }

    init(path: String, startTime: Date, registry: StepRegistry?, isStrict: Bool = false) {
        self.path = path
        self.startTime = startTime
        self.registry = registry
        self.isStrict = isStrict
        registered = Dictionary((registry?.definitions ?? []).map { (MatchInfo.Key(pattern: $0.pattern, location: $0.location), $0) }) { first, _ in first }
        runIDs = IDs()
        clock = Clock(start: startTime)
        runIDs.marker = (marker, .run, 0)
        _ = runIDs.next()  // testRunStarted's
        // Every step definition: all of the registry's in registration
        // order; without a registry, those that matched, then those no story used.
        for definition in registry?.definitions ?? [] { define(definition.pattern, definition.location) }
        for definition in registry?.definitions ?? [] where definition.id >= 0 {
            let key = MatchInfo.Key(pattern: definition.pattern, location: definition.location)
            guard let first = registered[key], let number = definitionNumbers[key] else { continue }
            if byID.count <= definition.id { byID += Array(repeating: nil, count: definition.id + 1 - byID.count) }
            byID[definition.id] = KnownDefinition(definition: first, number: number, layout: GroupLayout(first))
            if definitionsByID.count <= definition.id { definitionsByID += Array(repeating: nil, count: definition.id + 1 - definitionsByID.count) }
            definitionsByID[definition.id] = first
        }
        for hook in registry?.hooks ?? [] {
            defineHook(HookResult(kind: hook.kind.rawValue, location: hook.location, status: .passed, error: nil, duration: 0), tags: hook.tags, name: hook.name)
            hooksDefinitionsBefore.append(hook.definitionsBefore)
        }
    }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .storyFinished(let result): add(result)
        case .runFinished(let summary): self.summary = summary
        case .storyFileRejected(let file): rejectedFiles.append(file)
        case .runHookFinished(let hook):
            if hook.status == .failed { failedRunHooks += 1 }
            defineHook(hook)
            if hook.kind.hasPrefix("before") {
                if spill == nil { spill = ReportSpill(near: path) }
                var bytes: [UInt8] = []
                runHook(hook, into: &bytes)
                run.append(RunPart(place: spill!.append(bytes)))
            } else {
                afterRunHooks.append(hook)
            }
        case .runStarted, .storyStarted, .stepStarted, .stepFinished, .diagnostic: break
        }
    }

    /// The registered definition behind a match and its number, when the
    /// match names it by id (a run's own results do; merged ones do not).
    func known(_ match: MatchInfo) -> KnownDefinition? {
        knownID(match).flatMap { byID[$0] }
    }

    /// A registered definition, its number and its groups' layout (made
    /// once): a class, so a step's lookup retains one reference, not a
    /// tuple's three.
    final class KnownDefinition {
        let definition: StepDefinition
        let number: Int
        let layout: GroupLayout

        init(definition: StepDefinition, number: Int, layout: GroupLayout) {
            self.definition = definition
            self.number = number
            self.layout = layout
        }
    }

    /// The id of ``known(_:)``'s definition, without taking it out.
    private func knownID(_ match: MatchInfo) -> Int? {
        guard let id = match.definitionID, id >= 0, id < definitionsByID.count, let definition = definitionsByID[id],
            definition.pattern == match.pattern, definition.location == match.location
        else { return nil }
        return id
    }

    /// The number of the definition behind a match, if it was written.
    func definitionNumber(_ match: MatchInfo) -> Int? {
        known(match)?.number ?? definitionNumbers[match.key]
    }

    private mutating func define(_ match: MatchInfo) {
        if knownID(match) == nil { define(match.pattern, match.location) }
    }

    private mutating func define(_ pattern: String, _ location: SourceLocation) {
        let key = MatchInfo.Key(pattern: pattern, location: location)
        guard definitionNumbers[key] == nil else { return }
        definitions.append((key, definitions.count + 1))
        definitionNumbers[key] = definitions.count
    }

    private mutating func defineHook(_ hook: HookResult, tags: String? = nil, name: String? = nil) {
        let key = HookKey(kind: hook.kind, location: hook.location)
        guard hookNumbers[key] == nil else { return }
        hooks.append((hook, tags, name))
        hookNumbers[key] = hooks.count
    }

    func hookID(_ hook: HookResult) -> String {
        hookNumbers[HookKey(kind: hook.kind, location: hook.location)].map { marker.text(.hook, $0) } ?? ""
    }

    /// A before-run or after-run hook's envelopes.
    private mutating func runHook(_ hook: HookResult, into out: inout [UInt8]) {
        let startedID = runIDs.next()
        let runID = marker.text(.run, 1)
        Self.line(Self.envelope("testRunHookStarted", .object([
            ("id", .string(startedID)), ("testRunStartedId", .string(runID)),
            ("hookId", .string(hookID(hook))), ("timestamp", clock.timestamp),
        ])), into: &out)
        for attachment in hook.attachments {
            Self.line(Self.envelope("attachment", Self.attachment(attachment, at: [("testRunHookStartedId", .string(startedID))], clock: clock)), into: &out)
        }
        clock.nanoseconds &+= hook.duration
        Self.line(Self.envelope("testRunHookFinished", .object([
            ("testRunHookStartedId", .string(startedID)), ("result", Self.result(.hook(hook))), ("timestamp", clock.timestamp),
        ])), into: &out)
    }

    /// Writes a story's pickle under its file, and its test case and attempts to the run.
    private mutating func add(_ result: StoryResult) {
        if spill == nil { spill = ReportSpill(near: path) }
        let spill = spill!
        let file = result.story.location.file
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
            files.append(sourceFile(info, first: (result.story.location.line, result.story.groupName), index: index, base: nextFileBase))
            nextFileBase = files[index].base.map { $0 + info.idCount }
        }
        lastFile = (file, index)
        var pickle: PickleIDs?
        // Where a feature file's pickle went in the spill: written there directly.
        var picklePlace: ReportSpill.Place?
        if files[index].isFeature {
            var gherkin = GherkinFile(info: info, uri: files[index].uri, base: files[index].base ?? 1)
            if files[index].base == nil { gherkin.marker = (marker, index) }
            // A feature file: its official pickle (none for a story the file no longer holds).
            if let place = info.place(of: result.story) {
                picklePlace = spill.append { pickle = Self.pickle(place.pickle, file: gherkin, into: &$0) }
            }
        } else {
            let (scenario, synthesized) = Self.synthesized(result.story, uri: files[index].uri, ids: &files[index].ids)
            var bytes: [UInt8] = files[index].scenarios.isEmpty ? [] : [UInt8(ascii: ",")]
            scenario.write(into: &bytes)
            files[index].scenarios.append(spill.append(bytes))
            pickle = synthesized
        }
        func define(_ testSteps: [TestStepResult]) {
            // By index, a step's matches taken alone: a `for` loop, or a
            // `switch`, would copy every step's whole result.
            for index in testSteps.indices {
                if let (match, others, _) = testSteps[index].matches {
                    if let match { self.define(match) }
                    for match in others { self.define(match) }
                } else if let hook = testSteps[index].hookResult {
                    defineHook(hook)
                }
            }
        }
        for attempt in result.earlierAttempts { define(attempt.testSteps) }
        define(result.testSteps)
        guard let pickle else { return }
        files[index].pickles.append(picklePlace ?? spill.append(pickle.line))
        var record = 0
        var head = caseBuffer
        caseBuffer = []
        head.removeAll(keepingCapacity: true)
        let place = spill.append { record = testCase(result, pickle: pickle, head: &head, into: &$0) }
        testCases.append(spill.append(head))
        caseBuffer = head
        if partsBeforeStories == nil { partsBeforeStories = run.count }
        run.append(RunPart(place: place, record: record))
    }

    /// The rejected story files' `source` (when no story of theirs wrote
    /// it) and `parseError` envelopes, as Cucumber writes a file it cannot
    /// parse.
    private func parseErrors() -> [UInt8] {
        var out: [UInt8] = []
        var written = Set(files.map(\.uri))
        for rejected in rejectedFiles {
            let info = rejected.path.isEmpty ? nil : fileInfos.info(rejected.path)
            let uri = info.map { SourceLocation.relativePath($0.path) } ?? ""
            if let info, written.insert(uri).inserted {
                Self.line(Self.envelope("source", .object([
                    ("uri", .string(uri)), ("data", .string(info.text)),
                    ("mediaType", .string(Self.mediaType(uri))),
                ])), into: &out)
            }
            for problem in rejected.problems {
                // A path that names no file: a source reference without a place.
                guard let place = problem.location, info != nil else {
                    Self.line(Self.envelope("parseError", .object([("source", .object([])), ("message", .string(problem.problem))])), into: &out)
                    continue
                }
                var location: [(String, JSONValue)] = [("line", .int(Int64(place.line)))]
                if place.column > 0 { location.append(("column", .int(Int64(place.column)))) }
                Self.line(Self.envelope("parseError", .object([
                    ("source", .object([("uri", .string(uri)), ("location", .object(location))])),
                    ("message", .string("(\(place.line):\(max(place.column, 1))): \(problem.problem)")),
                ])), into: &out)
            }
        }
        return out
    }

    /// A story file's `source` and, for a feature file, `gherkinDocument`
    /// envelopes, and how its pickles are made.
    /// `base`: the number of its first id, when known (``nextFileBase``).
    /// `first`: the line of its first story, and the story's group (a
    /// `.stories` file's document is named after it).
    private func sourceFile(_ info: StoryFileInfo, first: (line: Int, group: String), index: Int, base: Int?) -> SourceFile {
        let uri = SourceLocation.relativePath(info.path)
        var head: [UInt8] = []
        Self.line(Self.envelope("source", .object([
            ("uri", .string(uri)), ("data", .string(info.text)),
            ("mediaType", .string(Self.mediaType(uri))),
        ])), into: &head)
        var ids = IDs()
        ids.marker = (marker, .file, index)
        if info.feature != nil, info.place(atLine: first.line) != nil {
            var gherkin = GherkinFile(info: info, uri: uri, base: base ?? 1)
            if base == nil { gherkin.marker = (marker, index) }
            _ = ids.reserve(info.idCount)
            JSONWriter.write(into: &head) { json in
                json.beginObject()
                json.key("gherkinDocument")
                gherkin.writeDocument(into: &json)
                json.endObject()
                json.lineEnd()
            }
            return SourceFile(uri: uri, head: spill!.append(head), ids: ids, isFeature: true, base: base)
        }
        var document: [UInt8] = []
        Self.line(Self.envelope("gherkinDocument", Self.synthesizedDocument(uri: uri, group: first.group, children: [])), into: &document)
        // Split around the empty children: the last `"children":[]` is the feature's.
        let children = Array(#""children":["#.utf8)
        var split = document.count - children.count
        while split >= 0, !document[split..<(split + children.count)].elementsEqual(children) { split -= 1 }
        split += children.count
        return SourceFile(
            uri: uri, head: spill!.append(head), synthesized: (Array(document[..<split]), Array(document[split...])), ids: ids,
            isFeature: false)
    }

    /// Writes the pickle of a feature file's story that did not run (a
    /// before-run hook failed, the run was stopped), as Cucumber writes
    /// every pickle it read; it has no test case. False when it cannot (a
    /// `.stories` file has no pickles): the run's note names the story.
    @discardableResult
    private mutating func addNotRun(_ location: SourceLocation) -> Bool {
        let info = fileInfos.info(location.file)
        guard info.feature != nil, let place = info.place(atLine: location.line) else { return false }
        if spill == nil { spill = ReportSpill(near: path) }
        let index: Int
        if let known = fileIndex[location.file] {
            index = known
        } else {
            index = files.count
            fileIndex[location.file] = index
            files.append(sourceFile(info, first: (location.line, ""), index: index, base: nextFileBase))
            nextFileBase = files[index].base.map { $0 + info.idCount }
        }
        guard files[index].isFeature else { return false }
        var gherkin = GherkinFile(info: info, uri: files[index].uri, base: files[index].base ?? 1)
        if files[index].base == nil { gherkin.marker = (marker, index) }
        files[index].pickles.append(spill!.append { _ = Self.pickle(place.pickle, file: gherkin, into: &$0) })
        return true
    }

    /// The after-run hooks' envelopes and `testRunFinished`.
    private mutating func runEnd() -> [UInt8] {
        var end: [UInt8] = []
        for hook in afterRunHooks { runHook(hook, into: &end) }
        clock.nanoseconds = max(clock.nanoseconds, summary.duration)
        var finished: [(String, JSONValue)] = [
            ("success", .bool(!summary.hasFailures(strict: isStrict) && rejectedFiles.isEmpty)), ("timestamp", clock.timestamp),
            ("testRunStartedId", .string(marker.text(.run, 1))),
        ]
        // What failed the run outside its steps and hooks, what else failed
        // it and the stories it did not run, for readers and `storyrun merge`.
        let note = RunOutcomeNote(summary: summary, failedRunHooks: failedRunHooks).omitting(pickledNotRun)
        if !summary.runErrors.isEmpty {
            finished.append(("message", .string(summary.runErrors.joined(separator: "\n"))))
        }
        if !note.isEmpty || !summary.runErrors.isEmpty {
            finished.append(("exception", note.exception(runErrors: summary.runErrors)))
        }
        Self.line(Self.envelope("testRunFinished", .object(finished)), into: &end)
        return end
    }

    /// What comes before the run's parts once every part is counted: the
    /// parse errors, parameter types, definitions and hooks, and
    /// `testRunStarted`; and the number of each series' first id.
    private func prelude() -> (bytes: [UInt8], bases: IDBases) {
        // Every part is counted now: number the ids.
        var next = 1
        var fileBases: [Int] = []
        for file in files {
            fileBases.append(next)
            next += file.ids.last
        }
        var prelude = parseErrors()
        for type in registry?.parameterTypes ?? [] {
            var members: [(String, JSONValue)] = [
                ("id", .string(String(next))), ("name", .string(type.name)),
                ("regularExpressions", .array(type.regexps.map(JSONValue.string))),
                ("preferForRegularExpressionMatch", .bool(type.preferForRegexpMatch)),
                ("useForSnippets", .bool(type.useForSnippets)),
            ]
            next += 1
            if let location = type.location { members.append(("sourceReference", Self.reference(location))) }
            Self.line(Self.envelope("parameterType", .object(members)), into: &prelude)
        }
        for undefined in registry?.undefinedParameterTypes ?? [] {
            Self.line(Self.envelope("undefinedParameterType", .object([
                ("expression", .string(undefined.expression)), ("name", .string(undefined.name)),
            ])), into: &prelude)
        }
        let bases = IDBases(files: fileBases, definition: next, hook: next + definitions.count, run: next + definitions.count + hooks.count)
        writeDefinitionsAndHooks(bases: bases, into: &prelude)
        Self.line(Self.envelope("testRunStarted", .object([("timestamp", Clock(start: startTime).timestamp), ("id", .string(String(bases.run)))])), into: &prelude)
        return (prelude, bases)
    }

    /// The `stepDefinition` and `hook` envelopes, in registration order.
    private func writeDefinitionsAndHooks(bases: IDBases, into prelude: inout [UInt8]) {
        // Definitions and hooks in registration order (hooks the registry
        // does not know, in a merge, last).
        var nextHook = 0
        func writeHooks(upTo definitionCount: Int) {
            while nextHook < hooks.count, nextHook >= hooksDefinitionsBefore.count ? definitionCount == Int.max : hooksDefinitionsBefore[nextHook] <= definitionCount {
                writeHook(nextHook)
                nextHook += 1
            }
        }
        func writeHook(_ number: Int) {
            let (hook, tags, name) = hooks[number]
            var members: [(String, JSONValue)] = [
                ("id", .string(String(bases.hook + number))), ("type", .string(Self.hookType(hook.kind))), ("sourceReference", Self.reference(hook.location)),
            ]
            if let tags { members.append(("tagExpression", .string(tags))) }
            if let name { members.append(("name", .string(name))) }
            Self.line(Self.envelope("hook", .object(members)), into: &prelude)
        }
        for (index, (key, number)) in definitions.enumerated() {
            writeHooks(upTo: index)
            let type = registered[key]?.syntax == .expression ? "CUCUMBER_EXPRESSION" : "REGULAR_EXPRESSION"
            Self.line(Self.envelope("stepDefinition", .object([
                ("id", .string(String(bases.definition + number - 1))),
                ("pattern", .object([("source", .string(key.pattern)), ("type", .string(type))])),
                ("sourceReference", Self.reference(key.location)),
            ])), into: &prelude)
        }
        writeHooks(upTo: Int.max)
    }

    public mutating func finish() throws {
        for location in summary.notRunStories where addNotRun(location) { pickledNotRun.insert(location) }
        for unused in summary.unusedDefinitions { define(unused.pattern, unused.location) }
        let end = runEnd()
        let (prelude, bases) = prelude()

        let spill = spill ?? ReportSpill(near: path)
        let marker = marker
        try AtomicFile.write(to: path) { file throws(Diagnostic) in
            var stream = StreamWriter(file: file, spill: spill, path: path, marker: marker, bases: bases)
            Self.line(Self.envelope("meta", Self.meta), into: &stream.out)
            // A reversed run's files and pickles back in reading order (a
            // `.stories` file's synthesized scenarios stay as they ran).
            for var source in isReversed ? Array(files.reversed()) : files {
                if isReversed { source.pickles.reverse() }
                if source.base != nil, source.synthesized == nil {
                    // Numbered already: copied as it is (by the kernel,
                    // when it can), not read back through the marker pass.
                    try stream.flush(atLeast: 1)
                    try spill.copy([source.head] + source.pickles, to: file)
                    continue
                }
                try stream.copy([source.head])
                if let synthesized = source.synthesized {
                    try stream.write(synthesized.prefix)
                    try stream.copy(source.scenarios)
                    try stream.write(synthesized.suffix)
                }
                try stream.copy(source.pickles)
            }
            stream.out += prelude
            // The run: each part's envelopes, then its attempts' record
            // written out. The spill hands over whole parts, in order.
            let clock = Clock(start: startTime)
            let split = partsBeforeStories ?? run.count
            // Before-run hooks, every test case, then the stories' attempts.
            try stream.readRun(run[..<split], clock: clock)
            try stream.copy(testCases)
            try stream.readRun(run[split...], clock: clock)
            try stream.write(end)
            try stream.flush(atLeast: 1)
        }
    }

    /// The stream on its way to the report file: the spill's parts read
    /// back with their ids resolved, written a megabyte at a time (a file
    /// system pays for each write: ext4 zeroes the rest of every page a
    /// small one starts, and the stream is made of thousands of small parts).
    private struct StreamWriter {
        let file: ReportFile
        let spill: ReportSpill
        let path: String
        let marker: IDMarker
        let bases: IDBases
        /// The bytes gathered and not yet written.
        var out: [UInt8] = []

        init(file: ReportFile, spill: ReportSpill, path: String, marker: IDMarker, bases: IDBases) {
            self.file = file
            self.spill = spill
            self.path = path
            self.marker = marker
            self.bases = bases
            out.reserveCapacity(MessagesReporter.writeSize + 64 * 1024)
        }

        /// Writes what is gathered once it is `size` bytes or more.
        mutating func flush(atLeast size: Int) throws(Diagnostic) {
            guard out.count >= size else { return }
            try file.write(out)
            out.removeAll(keepingCapacity: true)
        }

        /// Reads places of the spill back, their ids resolved.
        mutating func copy(_ places: [ReportSpill.Place]) throws(Diagnostic) {
            try spill.read(places, for: path) { bytes throws(Diagnostic) in
                MessagesReporter.resolving(bytes, marker: marker, bases: bases, into: &out)
                try flush(atLeast: MessagesReporter.writeSize)
            }
        }

        /// Adds bytes, their ids resolved.
        mutating func write(_ bytes: [UInt8]) throws(Diagnostic) {
            bytes.withUnsafeBytes { MessagesReporter.resolving($0, marker: marker, bases: bases, into: &out) }
            try flush(atLeast: MessagesReporter.writeSize)
        }

        /// Reads parts of the run back: each part's envelopes, their ids
        /// resolved, then its steps record written out as envelopes.
        mutating func readRun(_ parts: ArraySlice<RunPart>, clock: Clock) throws(Diagnostic) {
            var next = parts.startIndex
            try spill.read(parts.map(\.place), for: path) { bytes throws(Diagnostic) in
                var offset = 0
                while offset < bytes.count, next < parts.endIndex {
                    let part = parts[next]
                    next += 1
                    let envelopes = offset + part.place.count - part.record
                    MessagesReporter.resolving(UnsafeRawBufferPointer(rebasing: bytes[offset..<envelopes]), marker: marker, bases: bases, into: &out)
                    if part.record > 0 {
                        StepsRecord.writeEnvelopes(
                            UnsafeRawBufferPointer(rebasing: bytes[envelopes..<(envelopes + part.record)]), run: bases.run, clock: clock, into: &out)
                    }
                    offset += part.place.count
                    try flush(atLeast: MessagesReporter.writeSize)
                }
            }
        }
    }

    /// A story file's media type: Gherkin in Markdown for `.feature.md`.
    static func mediaType(_ uri: String) -> String {
        FeatureFile.isMarkdown(uri) ? "text/x.cucumber.gherkin+markdown" : "text/x.cucumber.gherkin+plain"
    }

    /// How many bytes the stream gathers before it writes them.
    static let writeSize = 1 << 20

    /// An envelope as a line of the stream.
    static func line(_ envelope: JSONValue, into out: inout [UInt8]) {
        envelope.write(into: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// A hook as a `hook` message knows it.
    struct HookKey: Hashable {
        var kind: String
        var location: SourceLocation
    }

    /// The id of the test case's step an attempt's test step ran as.
    static func testStepID(_ step: TestStepResult, index: Int, attempt: [TestStepResult], last: [TestStepResult], ids: [Int]) -> Int? {
        func key(_ step: TestStepResult) -> String {
            switch step {
            case .hook(let hook): "hook \(hook.kind) \(hook.location)"
            case .step(let step): "step \(step.step.location) \(step.step.text)"
            }
        }
        if attempt.count == last.count, index < ids.count { return ids[index] }
        let wanted = key(step)
        let occurrence = attempt[..<index].filter { key($0) == wanted }.count
        let matching = last.indices.filter { key(last[$0]) == wanted }
        return occurrence < matching.count ? ids[matching[occurrence]] : nil
    }

    private static func hookType(_ kind: String) -> String {
        switch kind {
        case "before run": "BEFORE_TEST_RUN"
        case "after run": "AFTER_TEST_RUN"
        case "before story": "BEFORE_TEST_CASE"
        case "after story": "AFTER_TEST_CASE"
        case "before step": "BEFORE_TEST_STEP"
        default: "AFTER_TEST_STEP"
        }
    }

    private static func reference(_ location: SourceLocation) -> JSONValue {
        .object([
            ("uri", .string(location.displayPath)),
            ("location", .object([("line", .int(Int64(location.line)))])),
        ])
    }

    static func attachment(_ attachment: Attachment, at reference: [(String, JSONValue)], clock: Clock) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("body", .string(attachment.isOverLimit ? attachment.limitNote ?? "" : attachment.body)),
            ("contentEncoding", .string(attachment.isOverLimit ? "IDENTITY" : attachment.encoding.rawValue)),
            ("mediaType", .string(attachment.isOverLimit ? "text/plain" : attachment.mediaType)),
        ]
        if let name = attachment.name { members.append(("fileName", .string(name))) }
        return .object(members + reference + [("timestamp", clock.timestamp)])
    }

    static func envelope(_ name: String, _ message: JSONValue) -> JSONValue {
        .object([(name, message)])
    }

    static func result(_ step: TestStepResult) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("duration", Clock.json(step.duration)),
            ("status", .string(step.status.rawValue.uppercased())),
        ]
        // An ambiguous step's definitions are its test step's
        // stepDefinitionIds; Cucumber gives it no message.
        if let error = step.error, step.status != .ambiguous {
            // Where it was thrown, then the story step (or hook), each place
            // once: a failed hook's message names the hook's already. Long
            // texts are cut as JUnit's are.
            let own = ReportText.cut(Self.withoutHookName(error.message, step.hookResult))
            var message = own
            if let thrown = error.location?.displayFileAndLine, !message.contains(thrown) { message += "\nat \(thrown)" }
            let place = step.place.displayFileAndLine
            if !message.contains(place) { message += "\n\(place)" }
            members.append(("message", .string(message)))
            let type = step.hookResult != nil ? "HookError" : "StepError"
            members.append(("exception", .object([
                ("type", .string(type)), ("message", .string(own)),
                ("stackTrace", .string(stackTrace(step, type: type, error: error))),
            ])))
        }
        return .object(members)
    }

    /// A failed hook's message without the words that name the hook
    /// (`the before story hook at FILE:LINE failed: `): in Messages its
    /// `hookId` names it, and the message is the error's, as Cucumber's.
    static func withoutHookName(_ message: String, _ hook: HookResult?) -> String {
        guard let hook else { return message }
        for prefix in ["the \(hook.kind) hook at \(hook.location.displayFileAndLine) failed: ", "the \(hook.kind) hook failed: "]
        where message.hasPrefix(prefix) {
            return String(message.dropFirst(prefix.count))
        }
        return message
    }

    /// A failure's trace, innermost first: where it was thrown, the step
    /// definition or hook that threw it, and the story step it ran for
    /// (each place once).
    static func stackTrace(_ step: TestStepResult, type: String, error: StepError) -> String {
        var places: [SourceLocation] = []
        if let thrown = error.location { places.append(thrown) }
        if let hook = step.hookResult {
            places.append(hook.location)
        } else if case .step(let result) = step, let match = result.match {
            places.append(match.location)
        }
        places.append(step.place)
        // The message's first line heads the trace, at most 1,000
        // characters of it (the whole is in `message`).
        let firstLine = withoutHookName(error.message, step.hookResult).prefix { $0 != "\n" }
        var lines = ["\(type): \(firstLine.prefix(1_000))\(firstLine.count > 1_000 ? "…" : "")"]
        var seen = Set<SourceLocation>()
        for place in places where seen.insert(place).inserted { lines.append("    at \(place.displayFileAndLine)") }
        return lines.joined(separator: "\n")
    }

    /// The `meta` message: storyrun, Swift, and the host's system and processor.
    static var meta: JSONValue {
        .object([
            ("protocolVersion", .string(protocolVersion)),
            ("implementation", .object([("name", .string("storyrun")), ("version", .string(StoryRun.version))])),
            ("runtime", .object([("name", .string("swift"))])),
            ("os", .object([("name", .string(hostSystem))])),
            ("cpu", .object([("name", .string(hostProcessor))])),
        ])
    }

    /// The operating system storyrun was built for.
    static var hostSystem: String {
        #if os(Linux)
        "linux"
        #elseif os(macOS)
        "darwin"
        #else
        "unknown"
        #endif
    }

    /// The processor architecture storyrun was built for.
    static var hostProcessor: String {
        #if arch(x86_64)
        "x64"
        #elseif arch(arm64)
        "arm64"
        #else
        "unknown"
        #endif
    }
}
