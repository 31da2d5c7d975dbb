import Foundation

/// Values one thread is done with, handed to the thread that made them to
/// free. Freeing memory another thread allocated takes that thread's
/// malloc arena lock, and the two threads then wait on each other: a
/// worker whose step thread freed the stories its reading thread parsed
/// made about 15,000 `futex` calls per 10,000 stories. Once the list is
/// closed, whoever hands a value in frees it.
final class Spent<Element>: @unchecked Sendable {
    // Unchecked: `values` and `isClosed` are used only under `condition`.
    private let condition = NSCondition()
    private var values: [Element] = []
    private var isClosed = false

    /// Files a value to be freed; once the list is closed the caller frees it.
    func add(_ value: consuming Element) {
        condition.lock()
        if !isClosed {
            values.append(value)
            condition.signal()
        }
        condition.unlock()
    }

    /// Files several values at once.
    func add(contentsOf batch: consuming [Element]) {
        condition.lock()
        if !isClosed {
            values.append(contentsOf: batch)
            condition.signal()
        }
        condition.unlock()
    }

    /// Frees what has been filed.
    func free() {
        condition.lock()
        let dead = values
        values = []
        condition.unlock()
        _ = consume dead
    }

    /// Waits a little for values and frees them; false once none came
    /// (the run is ending, or its steps are slow enough not to need this).
    func waitAndFree() -> Bool {
        condition.lock()
        if values.isEmpty { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.2)) }
        let dead = values
        values = []
        condition.unlock()
        let cameIn = !dead.isEmpty
        _ = consume dead
        return cameIn
    }

    /// Ends the list: values handed in from now on are freed by their giver.
    func close() {
        condition.lock()
        isClosed = true
        let dead = values
        values = []
        condition.unlock()
        _ = consume dead
    }
}
