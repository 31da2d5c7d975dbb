import Foundation

/// Writes Allure 2 results (`--allure DIR`): one `{uuid}-result.json` per
/// story attempt, as Allure's own adapters (allure-cucumber-jvm,
/// allure-behave) write them, and each attachment as
/// `{uuid}-attachment.{ext}` beside them. `allure generate DIR` (or
/// `allure serve DIR`) reads the folder.
///
/// Each file is written as its story finishes. Files already in the folder
/// stay: Allure reads every result in it, which is how results of several
/// runs (shards, retries) come together; empty it before a run to see one.
public struct AllureReporter: Reporter {
    private let directory: String
    /// The folder as the command line named it, for messages.
    private let shownDirectory: String
    /// The story files, for outlines' rows and Rules.
    var fileInfos = StoryFileInfo.Recent().reader()
    private var problem: Diagnostic?
    private var isReady = false
    private let host = ProcessInfo.processInfo.hostName
    private let thread = "storyrun-\(getpid())"

    /// Creates a reporter that writes into a folder, made if needed.
    /// A relative path is taken from the current folder now: a step run
    /// in process may change the folder later.
    public init(directory: String) {
        self.shownDirectory = directory
        self.directory =
            directory.hasPrefix("/") ? directory : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(directory)
    }

    /// It reads each story whole, from `storyFinished`.
    public var readsStoryProgress: Bool { false }

    public mutating func handle(_ event: RunEvent) {
        guard case .storyFinished(let result) = event, problem == nil else { return }
        do {
            try prepare()
            try write(result)
        } catch {
            problem = error
        }
    }

    public mutating func finish() throws {
        if problem == nil {
            do { try prepare() } catch { problem = error }
        }
        if let problem { throw problem }
    }

    /// Makes the folder, once.
    private mutating func prepare() throws(Diagnostic) {
        guard !isReady else { return }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Diagnostic(
                at: nil, problem: "--allure \(shownDirectory): the folder cannot be made (\(error.localizedDescription))",
                help: "name a folder storyrun can write")
        }
        isReady = true
    }

    /// Writes a result for each attempt, the last ending now and each
    /// earlier one ending when the next began.
    private func write(_ result: StoryResult) throws(Diagnostic) {
        let isFeature = FeatureFile.isFeature(result.story.location.file)
        let place = isFeature ? fileInfos.info(result.story.location.file).place(of: result.story) : nil
        let identity = AllureIdentity(story: result.story, place: place, host: host, thread: thread)
        var attempts = result.earlierAttempts.map {
            AllureResult.Attempt(status: $0.status, testSteps: $0.testSteps, start: 0, stop: Int64($0.duration / 1_000_000))
        }
        attempts.append(
            AllureResult.Attempt(
                status: result.status, testSteps: result.testSteps, start: 0, stop: Int64(result.duration / 1_000_000),
                isFlaky: result.isFlaky, wasInterrupted: result.wasInterrupted))
        var stop = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        for index in attempts.indices.reversed() {
            let length = attempts[index].stop
            attempts[index].stop = stop
            attempts[index].start = stop - length
            stop = attempts[index].start
        }
        for attempt in attempts {
            let uuid = UUID().uuidString.lowercased()
            var failed: Diagnostic?
            let allure = AllureResult(attempt, identity: identity, uuid: uuid) { attachment in
                do throws(Diagnostic) {
                    return try save(attachment)
                } catch {
                    failed = error
                    return nil
                }
            }
            if let failed { throw failed }
            try save(allure)
        }
    }

    private func save(_ result: AllureResult) throws(Diagnostic) {
        try save(Self.encoded(result), as: "\(result.uuid)-result.json")
    }

    /// The bytes of a result file.
    static func encoded(_ result: AllureResult) -> Data {
        var bytes: [UInt8] = []
        result.json.write(into: &bytes)
        return Data(bytes)
    }

    /// Writes an attachment's file and names it for the result.
    private func save(_ attachment: Attachment) throws(Diagnostic) -> AllureAttachment {
        let name = "\(UUID().uuidString.lowercased())-attachment.\(Self.fileExtension(attachment.mediaType))"
        try save(attachment.data, as: name)
        return AllureAttachment(name: attachment.name ?? "attachment", source: name, type: attachment.mediaType)
    }

    private func save(_ data: Data, as name: String) throws(Diagnostic) {
        let path = (directory as NSString).appendingPathComponent(name)
        do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch { throw cannotWrite(name, error) }
    }

    private func cannotWrite(_ name: String, _ error: any Error) -> Diagnostic {
        Diagnostic(
            at: nil, problem: "--allure \(shownDirectory): \(name) cannot be written (\(error.localizedDescription))",
            help: "free space or name a folder storyrun can write")
    }

    /// The file extension Allure shows an attachment by.
    static func fileExtension(_ mediaType: String) -> String {
        let type = mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch type {
        case "text/plain", "text/x.cucumber.log+plain": return "txt"
        case "application/json": return "json"
        case "text/html": return "html"
        case "image/png": return "png"
        case "image/jpeg": return "jpg"
        case "image/svg+xml": return "svg"
        case "text/csv": return "csv"
        case "application/xml", "text/xml": return "xml"
        default:
            let subtype = type.split(separator: "/").last.map(String.init) ?? ""
            return subtype.allSatisfy({ $0.isLetter || $0.isNumber }) && !subtype.isEmpty ? subtype : "bin"
        }
    }
}
