#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses the story files the file reports will read, on a thread of its
/// own, a few files ahead of them (``StoryFileInfo/Recent/prefetch(_:)``).
///
/// Without it the report thread that comes to a file first parses it,
/// holding the shared list, and the other report thread waits: at the end
/// of a run, when the two report threads alone are left, one core stood
/// idle for each file. The thread that receives the results calls
/// ``note(_:)`` with every event; a file is named to the thread when its
/// first story finishes.
///
/// ```swift
/// let prefetch = StoryFilePrefetch(files: recent)
/// prefetch.note(.storyFinished(result))
/// prefetch.stop()
/// ```
final class StoryFilePrefetch {
    private let paths = HandOff<String>(capacity: 64)
    /// The file of the last story noted (the sender's side alone).
    private var lastPath: String?
    /// Whether the thread runs; false when it could not start.
    private let isThreaded: Bool

    init(files: StoryFileInfo.Recent) {
        let paths = paths
        isThreaded = Threads.start {
            // SIGINT and SIGTERM stay with the thread that supervises.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGINT)
            sigaddset(&signals, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &signals, nil)
            while let path = paths.take() { files.prefetch(path) }
        }
    }

    deinit {
        paths.cancel()
    }

    /// Names a finished story's file to the thread, when it is not the
    /// file of the story before.
    func note(_ event: RunEvent) {
        guard isThreaded, case .storyFinished(let result) = event else { return }
        let path = result.story.location.file
        guard path != lastPath else { return }
        lastPath = path
        paths.put(path)
    }

    /// Ends the thread: the files it has not parsed yet are dropped.
    func stop() {
        paths.cancel()
    }
}
