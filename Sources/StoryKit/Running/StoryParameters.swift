import Synchronization

/// The user parameters of a run: `-D KEY=VALUE` on the command line and the
/// `parameters` of the config file, for running the same stories against
/// dev, staging and CI.
///
/// Steps and hooks read them through ``StoryRun/parameters``; worker
/// processes get them from their parent.
///
/// ```swift
/// let baseURL = StoryRun.parameters["base-url"] ?? "http://localhost:8080"
/// let retries = try StoryRun.parameters.value("retries", as: Int.self)
/// ```
public struct StoryParameters: Sendable, Equatable {
    /// The parameters, by key.
    public var values: [String: String]

    /// Creates parameters from their values.
    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    /// The text given for a key, or nil.
    public subscript(key: String) -> String? { values[key] }

    /// The keys given, sorted.
    public var keys: [String] { values.keys.sorted() }

    /// Returns the parameter under a key, converted as a step argument of
    /// that type would be (`Int`, `Double`, `Bool`, an enum…).
    /// - Throws: ``StoryParameterError`` when the key was not given or its
    ///   text is not a value of the type; the error names the Swift line of
    ///   the read.
    public func value<T: StepArgument>(
        _ key: String, as type: T.Type = T.self, file: String = #filePath, line: Int = #line
    ) throws -> T {
        guard let text = values[key] else {
            let given = keys.map { "\"\($0)\"" }.joined(separator: ", ")
            throw StoryParameterError(
                message: "no parameter \"\(key)\" was given (give it with -D \(key)=VALUE or under \"parameters\" in storyrun.json; "
                    + (given.isEmpty ? "no parameter was given)" : "given: \(given))"),
                location: SourceLocation(file: file, line: line))
        }
        guard let value = T(stepArgument: text) else {
            throw StoryParameterError(
                message: "the parameter \"\(key)\" is \"\(text)\", which is not \(T.stepArgumentName)",
                location: SourceLocation(file: file, line: line))
        }
        return value
    }

    /// The parameters of the run in this process.
    static let current = Mutex(StoryParameters())
}

/// A read of a user parameter that was not given or does not convert.
public struct StoryParameterError: Error, CustomStringConvertible, LocatedError {
    /// What went wrong.
    public var message: String
    /// Where the read was written in Swift.
    public var location: SourceLocation?

    public var description: String { message }
}

extension StoryRun {
    /// The user parameters of the run: `-D KEY=VALUE` and the config
    /// file's `parameters` (the command line wins).
    public static var parameters: StoryParameters {
        StoryParameters.current.withLock { $0 }
    }
}
