import Foundation

/// A first-in, first-out queue that hands values from one thread to another:
/// `put` waits while it holds `capacity` values, `take` waits while it is
/// empty. After ``finish()`` takers get what is left, then nil; after
/// ``cancel()`` every call returns at once and what was left is dropped.
final class HandOff<Element: Sendable>: @unchecked Sendable {
    // Unchecked: every field but `capacity` is read and written only under `condition`.
    private let capacity: Int
    private let condition = NSCondition()
    private var values: [Element] = []
    private var isFinished = false
    private var isCancelled = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Adds a value, waiting for room; false when the queue was cancelled.
    @discardableResult
    func put(_ value: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while values.count >= capacity && !isCancelled { condition.wait() }
        guard !isCancelled else { return false }
        values.append(value)
        condition.broadcast()
        return true
    }

    /// The oldest value, waiting for one; nil once the queue is finished and
    /// empty, or cancelled.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while values.isEmpty && !isFinished && !isCancelled { condition.wait() }
        guard !isCancelled, !values.isEmpty else { return nil }
        let value = values.removeFirst()
        condition.broadcast()
        return value
    }

    /// The oldest value, as ``take()``; when none is there yet, calls
    /// `beforeWaiting` (without holding the queue) first.
    func take(beforeWaiting: () -> Void) -> Element? {
        condition.lock()
        let isEmpty = values.isEmpty && !isFinished && !isCancelled
        condition.unlock()
        if isEmpty { beforeWaiting() }
        return take()
    }

    /// No more values will be put.
    func finish() {
        condition.lock()
        isFinished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Drops what is queued and ends the queue for both sides.
    func cancel() {
        condition.lock()
        isCancelled = true
        values = []
        condition.broadcast()
        condition.unlock()
    }
}
