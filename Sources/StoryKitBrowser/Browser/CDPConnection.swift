import Dispatch
import Foundation
import StoryKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A DevTools protocol message or its parameters: a JSON object as
/// ``JSONValue`` reads it, read by key (a member of another kind is nil).
struct CDPObject: Sendable {
    var value: JSONValue
    init(_ value: JSONValue) { self.value = value }
    subscript(key: String) -> JSONValue? { value[key] }
    func string(_ key: String) -> String? { value[key]?.stringValue }
    func int(_ key: String) -> Int? { value[key]?.intValue.flatMap { Int(exactly: $0) } }
    func double(_ key: String) -> Double? { value[key]?.doubleValue }
    func bool(_ key: String) -> Bool? { value[key]?.boolValue }
    /// A list of strings; nil when it is not one.
    func strings(_ key: String) -> [String]? {
        guard let list = value[key]?.arrayValue else { return nil }
        let strings = list.compactMap(\.stringValue)
        return strings.count == list.count ? strings : nil
    }
    func object(_ key: String) -> CDPObject? { value[key].flatMap { $0.objectMembers == nil ? nil : CDPObject($0) } }
    /// The object a JSON value is, or nil.
    init?(object value: JSONValue?) {
        guard let value, value.objectMembers != nil else { return nil }
        self.value = value
    }
}

/// A command's parameters: an object's members, in order.
typealias CDPParameters = [(String, JSONValue)]

/// The DevTools protocol over the browser's pipe: commands with ids,
/// answers matched to them, events handed to the handler of their session.
/// A reading thread parses the NUL-separated JSON; a caller waits for its
/// answer with a time limit. A browser that exits fails every waiting call
/// with how it ended; one that does not answer in time is stopped.
final class CDPConnection: Sendable {
    let process: ChromiumProcess
    /// Seconds a command may take before the browser counts as not answering.
    let timeLimit: Double

    fileprivate final class Waiter: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result<CDPObject, BrowserError>?
    }

    private struct State {
        var nextID = 1
        var waiters: [Int: Waiter] = [:]
        var failure: BrowserError?
        var handlers: [String: @Sendable (String, CDPObject) -> Void] = [:]
    }

    private let state = Mutex(State())
    private let writing = Mutex(())

    init(process: ChromiumProcess, timeLimit: Double) {
        self.process = process
        self.timeLimit = timeLimit
        let thread = Thread { [self] in readMessages() }
        thread.stackSize = 512 * 1024
        thread.start()
    }

    /// Why the connection no longer works, or nil while it does.
    var failure: BrowserError? { state.withLock { $0.failure } }

    /// Sets the code that handles the events of a session (`""`: the browser's own).
    func handleEvents(of session: String, _ handler: (@Sendable (String, CDPObject) -> Void)?) {
        state.withLock { $0.handlers[session] = handler }
    }

    /// Sends a command and waits for its answer.
    /// - Throws: ``BrowserError`` with the protocol's error, the browser's
    ///   end, or its silence past the time limit (the browser is then stopped).
    @discardableResult
    func call(_ method: String, _ params: CDPParameters = [], session: String? = nil, timeLimit: Double? = nil) throws -> CDPObject {
        try wait(for: start(method, params, session: session), timeLimit: timeLimit)
    }

    /// Sends several commands at once and waits for every answer, in order:
    /// one round trip instead of one each (the browser handles a session's
    /// commands in the order sent). Throws the first failure.
    func callAll(_ commands: [(method: String, params: CDPParameters)], session: String? = nil, timeLimit: Double? = nil) throws {
        var pending: [Pending] = []
        for command in commands { pending.append(try start(command.method, command.params, session: session)) }
        for command in pending { try wait(for: command, timeLimit: timeLimit) }
    }

    /// A command sent whose answer is awaited.
    struct Pending {
        fileprivate let id: Int
        fileprivate let method: String
        fileprivate let waiter: Waiter
        fileprivate let sent = CDPTrace.isOn ? CDPTrace.now() : 0
    }

    private func start(_ method: String, _ params: CDPParameters, session: String?) throws -> Pending {
        let waiter = Waiter()
        let id = try state.withLock { state -> Int in
            if let failure = state.failure { throw failure }
            defer { state.nextID += 1 }
            state.waiters[state.nextID] = waiter
            return state.nextID
        }
        try send(id: id, method, params, session: session)
        return Pending(id: id, method: method, waiter: waiter)
    }

    private func wait(for command: Pending, timeLimit: Double?) throws -> CDPObject {
        let limit = timeLimit ?? self.timeLimit
        if command.waiter.done.wait(timeout: .now() + limit) == .timedOut {
            let error = BrowserError(
                "the browser (pid \(process.pid)) did not answer \(command.method) within \(Self.seconds(limit)): it was stopped, "
                    + "and the next story starts a new one")
            fail(error)
            process.stop()
            throw error
        }
        if CDPTrace.isOn { CDPTrace.log(command.method, since: command.sent) }
        return try state.withLock { state in
            state.waiters[command.id] = nil
            return command.waiter.result ?? .failure(state.failure ?? BrowserError("\(command.method) got no answer"))
        }.get()
    }

    /// Sends a command without waiting for its answer (from an event handler).
    func post(_ method: String, _ params: CDPParameters = [], session: String? = nil) {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try? send(id: id, method, params, session: session)
    }

    private func send(id: Int, _ method: String, _ params: CDPParameters, session: String?) throws {
        var message: CDPParameters = [("id", .int(Int64(id))), ("method", .string(method)), ("params", .object(params))]
        if let session { message.append(("sessionId", .string(session))) }
        var bytes: [UInt8] = []
        JSONValue.object(message).write(into: &bytes)
        bytes.append(0)
        let written = writing.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes { write(process.descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        if !written {
            throw failure ?? BrowserError("cannot send \(method) to the browser (pid \(process.pid)): \(String(cString: strerror(errno)))")
        }
    }

    /// Fails every waiting call and every later one with `error` (the first reason stays).
    func fail(_ error: BrowserError) {
        let waiters = state.withLock { state -> [Waiter] in
            if state.failure == nil { state.failure = error }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.result = .failure(failure ?? error)
            waiter.done.signal()
        }
    }

    /// Reads messages until the browser closes its end.
    private func readMessages() {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(process.descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var start = buffer.count
            buffer.append(contentsOf: chunk[0..<count])
            var consumed = 0
            while let end = buffer[start...].firstIndex(of: 0) {
                dispatch(buffer[consumed..<end])
                consumed = end + 1
                start = consumed
            }
            if consumed > 0 { buffer.removeFirst(consumed) }
        }
        let reason = process.exitReason(waiting: 2) ?? "it closed its pipe"
        let log = process.lastLogLines()
        fail(BrowserError(
            "the browser (pid \(process.pid)) stopped: \(reason)\(log.isEmpty ? "" : "; its last words:\n" + log)\n"
                + "the next story starts a new one"))
    }

    private func dispatch(_ bytes: ArraySlice<UInt8>) {
        guard let message = CDPObject(object: try? JSONValue(parsingUTF8: Array(bytes))) else { return }
        if let id = message.int("id") {
            guard let waiter = state.withLock({ $0.waiters.removeValue(forKey: id) }) else { return }
            if let error = message.object("error") {
                let text = error.string("message") ?? "an error"
                let data = error.string("data").map { " (\($0))" } ?? ""
                waiter.result = .failure(BrowserError(text + data))
            } else {
                waiter.result = .success(message.object("result") ?? CDPObject(.object([])))
            }
            waiter.done.signal()
        } else if let method = message.string("method") {
            let session = message.string("sessionId") ?? ""
            let handler = state.withLock { $0.handlers[session] }
            handler?(method, message.object("params") ?? CDPObject(.object([])))
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
