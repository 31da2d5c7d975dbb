/// A key-value store that passes data between the step classes of one story
/// (Simon's `SIStoreInStory` and `SIRetrieveFromStory`).
///
/// Each story gets an empty store, reachable from any step as `steps.store`
/// or ``StoryStore/current``; it is dropped when the story ends.
///
/// ```swift
/// steps.store["user"] = "ada"
/// let user = try steps.store.value("user", as: String.self)
/// ```
public final class StoryStore: @unchecked Sendable {
    // Unchecked: a store never leaves the task of the story that owns it.
    private var values: [String: Any] = [:]

    /// Creates an empty store.
    public init() {}

    /// The store of the story that is running; an empty store outside a story.
    public static var current: StoryStore { currentStore ?? StoryStore() }

    @TaskLocal static var currentStore: StoryStore?

    /// The value stored under a key, or nil; setting nil removes it.
    public subscript(key: String) -> Any? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// Stores a value under a key, replacing any value there.
    public func set(_ value: Any, forKey key: String) {
        values[key] = value
    }

    /// Returns the value stored under a key, as a type.
    /// - Throws: ``StoryStoreError`` when nothing is stored under the key or
    ///   the value is of another type.
    public func value<T>(
        _ key: String, as type: T.Type = T.self, file: String = #filePath, line: Int = #line
    ) throws -> T {
        guard let value = values[key] else {
            let known = values.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw StoryStoreError(
                message: "nothing is stored under \"\(key)\" in this story"
                    + (known.isEmpty ? " (the store is empty)" : " (stored keys: \(known))"),
                location: SourceLocation(file: file, line: line))
        }
        guard let typed = value as? T else {
            throw StoryStoreError(
                message: "the value stored under \"\(key)\" is \(Swift.type(of: value)), not \(T.self)",
                location: SourceLocation(file: file, line: line))
        }
        return typed
    }

    /// The keys stored, sorted.
    public var keys: [String] { values.keys.sorted() }
}

/// A read from the story store that found no value of the wanted type.
public struct StoryStoreError: Error, CustomStringConvertible, LocatedError {
    /// What went wrong.
    public var message: String
    /// Where the read was written in Swift.
    public var location: SourceLocation?

    public var description: String { message }
}
