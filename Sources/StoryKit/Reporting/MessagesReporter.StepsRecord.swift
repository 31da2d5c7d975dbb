extension MessagesReporter {
    /// A test case's attempts as numbers, not envelopes: their ids, the
    /// clock at each start, and each step's duration and status, written
    /// out as `testCaseStarted`, `testStepStarted`, `testStepFinished` and
    /// `testCaseFinished` envelopes when the stream is assembled.
    ///
    /// Those envelopes are a third of the stream and four of its ids a
    /// step. Written as the run goes, they went to the spill file with
    /// their ids as markers, were read back, and had every marker
    /// replaced; as numbers (24 bytes a step, not about 350), they are
    /// written once, with their ids already numbered. Only attempts whose
    /// steps attached nothing and have no error are kept so (nearly
    /// all): the others are written as they were.
    ///
    /// The record is 64-bit words: the number of attempts and the test
    /// case's id, then per attempt its `testCaseStarted` id, the clock at
    /// its start, its duration and its number of test steps, then per
    /// test step its id, duration and status. Ids are numbers in the run's
    /// series (``IDMarker/Series/run``), from 1.
    enum StepsRecord {
        /// Whether the attempts can be kept as a record: no step attached
        /// anything, has an error or is undefined (read in place, by index: a `for` loop
        /// would copy every step's result).
        static func fits(_ attempts: [StoryAttempt]) -> Bool {
            for attempt in attempts.indices {
                for index in attempts[attempt].testSteps.indices {
                    if !attempts[attempt].testSteps[index].attachments.isEmpty || attempts[attempt].testSteps[index].error != nil { return false }
                    // An undefined step's suggestion goes among the envelopes.
                    if attempts[attempt].testSteps[index].stepStatus == .undefined { return false }
                }
            }
            return true
        }

        /// Appends the record of the attempts, numbering their ids and
        /// moving the clock on as writing their envelopes would; returns
        /// its length in bytes. `stepIDs`: the test case's test step ids;
        /// `last`: the last attempt's test steps.
        static func write(
            _ attempts: [StoryAttempt], caseID: Int, stepIDs: [Int], last: [TestStepResult], ids: inout IDs, clock: inout Clock,
            into out: inout [UInt8]
        ) -> Int {
            let start = out.count
            func word(_ value: UInt64) {
                withUnsafeBytes(of: value) { out.append(contentsOf: $0) }
            }
            word(UInt64(attempts.count))
            word(UInt64(caseID))
            for attempt in attempts {
                word(UInt64(ids.nextNumber()))
                let caseStart = clock.nanoseconds
                word(caseStart)
                word(attempt.duration)
                // The count of test steps, filled in below.
                let countAt = out.count
                word(0)
                var count: UInt64 = 0
                for index in attempt.testSteps.indices {
                    // As ``MessagesReporter/testCase(_:pickle:into:)`` finds them.
                    let isSameShape = attempt.testSteps.count == last.count && index < stepIDs.count
                    guard let stepID = isSameShape
                        ? stepIDs[index] : MessagesReporter.testStepID(attempt.testSteps[index], index: index, attempt: attempt.testSteps, last: last, ids: stepIDs)
                    else { continue }
                    let duration = attempt.testSteps[index].duration
                    word(UInt64(stepID))
                    word(duration)
                    word(code(attempt.testSteps[index].status))
                    clock.nanoseconds &+= duration
                    count += 1
                }
                withUnsafeBytes(of: count) { bytes in
                    for offset in 0..<8 { out[countAt + offset] = bytes[offset] }
                }
                clock.nanoseconds = max(clock.nanoseconds, caseStart &+ attempt.duration)
            }
            return out.count - start
        }

        /// Appends the envelopes of a record, its ids numbered from `run`
        /// (the number of the run series' first id): the bytes
        /// ``MessagesReporter/testCase(_:pickle:into:)`` writes for the
        /// same attempts, once their markers are numbered. `clock`: the
        /// run's clock (its time is the record's).
        static func writeEnvelopes(_ record: UnsafeRawBufferPointer, run: Int, clock: Clock, into out: inout [UInt8]) {
            var clock = clock
            var cursor = 0
            func word() -> UInt64 {
                defer { cursor += 8 }
                return record.loadUnaligned(fromByteOffset: cursor, as: UInt64.self)
            }
            // Ids as numbers, quoted.
            let id = { (json: inout JSONWriter, number: Int) in json.integerString(Int64(run) + Int64(number) - 1) }
            let attempts = word()
            let caseID = Int(word())
            JSONWriter.write(into: &out) { json in
                for number in 0..<attempts {
                    let startedID = Int(word())
                    let caseStart = word()
                    let duration = word()
                    let steps = word()
                    clock.nanoseconds = caseStart
                    MessagesReporter.writeTestCaseStarted(attempt: Int(number), startedID: startedID, caseID: caseID, clock: clock, id: id, into: &json)
                    for _ in 0..<steps {
                        let stepID = Int(word())
                        let stepDuration = word()
                        let status = word()
                        MessagesReporter.writeTestStepStarted(startedID: startedID, stepID: stepID, clock: clock, id: id, into: &json)
                        clock.nanoseconds &+= stepDuration
                        MessagesReporter.writeTestStepFinished(startedID: startedID, stepID: stepID, clock: clock, id: id, into: &json) { json in
                            MessagesReporter.writePlainResult(duration: stepDuration, status: Self.status(status), into: &json)
                        }
                    }
                    clock.nanoseconds = max(clock.nanoseconds, caseStart &+ duration)
                    MessagesReporter.writeTestCaseFinished(
                        startedID: startedID, willBeRetried: number < attempts - 1, clock: clock, id: id, into: &json)
                }
            }
        }

        /// A status as a word of the record.
        private static func code(_ status: StepStatus) -> UInt64 {
            switch status {
            case .passed: 0
            case .failed: 1
            case .undefined: 2
            case .skipped: 3
            case .ambiguous: 4
            case .pending: 5
            }
        }

        /// The status a word of the record stands for.
        private static func status(_ code: UInt64) -> StepStatus {
            switch code {
            case 0: .passed
            case 1: .failed
            case 2: .undefined
            case 3: .skipped
            case 4: .ambiguous
            default: .pending
            }
        }
    }
}
