import Testing

@testable import StoryKit

/// When `--jobs N` starts the workers beyond the first.
@Suite(.timeLimit(.minutes(10))) struct WorkerDemandTests {
    let quick: UInt64 = 3_000
    let slow: UInt64 = 200_000

    @Test("Quick stories never ask for another worker, however many")
    func quickStories() {
        var demand = WorkerDemand()
        for _ in 0..<10_000 { demand.noteFinished(duration: quick) }
        #expect(!demand.wantsMore(longestRunning: 1_000_000))
    }

    @Test("Half of the last 16 stories slow asks for more; seven does not")
    func halfSlow() {
        var demand = WorkerDemand()
        for index in 0..<16 { demand.noteFinished(duration: index.isMultiple(of: 2) ? slow : quick) }
        #expect(demand.wantsMore(longestRunning: 0))
        var fewer = WorkerDemand()
        for index in 0..<16 { fewer.noteFinished(duration: index < 7 ? slow : quick) }
        #expect(!fewer.wantsMore(longestRunning: 0))
    }

    @Test("Slow stories after thousands of quick ones ask for more once eight have finished")
    func slowAfterQuick() {
        var demand = WorkerDemand()
        for _ in 0..<5_000 { demand.noteFinished(duration: quick) }
        for count in 1...8 {
            #expect(demand.wantsMore(longestRunning: 0) == false, "after \(count - 1) slow stories")
            demand.noteFinished(duration: slow)
        }
        #expect(demand.wantsMore(longestRunning: 0))
    }

    @Test("A few paused stories among quick ones do not decide it")
    func pausedStories() {
        var demand = WorkerDemand()
        for index in 0..<1_000 { demand.noteFinished(duration: index % 5 == 0 ? 4_000_000 : quick) }
        #expect(!demand.wantsMore(longestRunning: 0))
    }

    @Test("A story running for 10 ms asks for more at once, before any has finished")
    func longStory() {
        let demand = WorkerDemand()
        #expect(!demand.wantsMore(longestRunning: 9_999_999))
        #expect(demand.wantsMore(longestRunning: 10_000_000))
    }

    @Test("One story that took 10 ms asks for more, even among many quick ones")
    func oneLongStory() {
        var demand = WorkerDemand()
        for _ in 0..<1_000 { demand.noteFinished(duration: quick) }
        demand.noteFinished(duration: 10_000_000)
        for _ in 0..<1_000 { demand.noteFinished(duration: quick) }
        #expect(demand.wantsMore(longestRunning: 0))
    }
}
