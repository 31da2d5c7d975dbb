import Foundation

/// A first-in, first-out queue that hands values from one thread to another:
/// `put` waits while it holds `capacity` values, `take` waits while it is
/// empty. After ``finish()`` takers get what is left, then nil; after
/// ``cancel()`` every call returns at once and what was left is dropped.
final class HandOff<Element: Sendable>: @unchecked Sendable {
    // Unchecked: every field but `capacity` is read and written only under `condition`.
    private let capacity: Int
    private let condition = NSCondition()
    /// The queued values from `head` on; the slots before it were taken
    /// (emptied at once, so nothing taken is kept alive; dropped in bulk, so
    /// a take never moves the rest).
    private var values: [Element?] = []
    private var head = 0
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
        while values.count - head >= capacity && !isCancelled { condition.wait() }
        guard !isCancelled else { return false }
        if head > 0 && head == values.count {
            values.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= capacity {
            values.removeFirst(head)
            head = 0
        }
        values.append(value)
        condition.broadcast()
        return true
    }

    /// The oldest value, waiting for one; nil once the queue is finished and
    /// empty, or cancelled.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == values.count && !isFinished && !isCancelled { condition.wait() }
        guard !isCancelled, head < values.count else { return nil }
        let value = values[head].take()
        head += 1
        condition.broadcast()
        return value
    }

    /// Takes out every queued value that `predicate` picks, oldest first.
    func removeAll(where predicate: (Element) -> Bool) -> [Element] {
        condition.lock()
        defer { condition.unlock() }
        guard head < values.count else { return [] }
        var kept: [Element?] = []
        var removed: [Element] = []
        for case let value? in values[head...] {
            if predicate(value) { removed.append(value) } else { kept.append(value) }
        }
        guard !removed.isEmpty else { return [] }
        values = kept
        head = 0
        condition.broadcast()
        return removed
    }

    /// The oldest value, as ``take()``; when none is there yet, calls
    /// `beforeWaiting` (without holding the queue) first.
    func take(beforeWaiting: () -> Void) -> Element? {
        condition.lock()
        let isEmpty = head == values.count && !isFinished && !isCancelled
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
        head = 0
        condition.broadcast()
        condition.unlock()
    }
}
