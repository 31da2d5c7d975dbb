import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The one browser of this process: started when a story first needs it,
/// replaced when it died or stopped answering, stopped when the process exits.
public enum Browser {
    /// The Chromium executable; nil looks at `STORYKIT_CHROMIUM`, then for
    /// Debian's headless shell (`/usr/lib/chromium/chromium-headless-shell`),
    /// then on the PATH for `chromium-headless-shell`, `chromium` and Chrome's names.
    public static var executable: String? {
        get { settings.withLock { $0.executable } }
        set { settings.withLock { $0.executable = newValue } }
    }

    /// The executable the next browser would be started from, or nil when
    /// none is configured or found.
    public static var executableFound: String? { ChromiumProcess.findExecutable(executable) }

    /// Seconds one DevTools command may take before the browser counts as
    /// not answering (it is then stopped, and the next story gets a new one).
    public static var commandTimeLimit: Double {
        get { settings.withLock { $0.commandTimeLimit } }
        set { settings.withLock { $0.commandTimeLimit = newValue } }
    }

    private struct Settings {
        var executable: String?
        var commandTimeLimit: Double = 10
    }

    private static let settings = Mutex(Settings())
    private static let current = Mutex<CDPConnection?>(nil)
    private static let registersExit: Void = { atexit { Browser.stop() } }()

    /// The running browser's connection, starting a browser if there is none
    /// or the last one failed.
    static func connection() throws -> CDPConnection {
        _ = registersExit
        return try current.withLock { current in
            if let connection = current, connection.failure == nil { return connection }
            if let old = current { old.process.stop() }
            current = nil
            guard let path = ChromiumProcess.findExecutable(executable) else {
                throw BrowserError(
                    "no Chromium found: install it (Debian: apt-get install chromium-headless-shell, or chromium), or name it with STORYKIT_CHROMIUM or Browser.executable")
            }
            let process = try ChromiumProcess(executable: path)
            let connection = CDPConnection(process: process, timeLimit: commandTimeLimit)
            do {
                try connection.call("Browser.getVersion", timeLimit: max(commandTimeLimit, 30))
            } catch {
                process.stop()
                throw BrowserError("\(path) did not start as a DevTools browser: \(error)")
            }
            current = connection
            return connection
        }
    }

    /// The pid of the running browser, if one runs (for tests and messages).
    public static var processID: Int32? { current.withLock { $0?.process.pid } }

    /// Stops the browser, if one runs; the next story starts a new one.
    public static func stop() {
        let connection = current.withLock { current in
            defer { current = nil }
            return current
        }
        spare.withLock { $0 = nil }
        connection?.process.stop()
    }

    private static let spare = Mutex<SparePage?>(nil)

    /// A page in a fresh browser context for a story: the one made ahead
    /// while the last story ran, if it is ready and of the running browser,
    /// else a new one. Either way the next story's page is then made ahead
    /// (its context and renderer start while this story runs).
    static func newPage() throws -> BrowserPage {
        let connection = try Browser.connection()
        let ahead = spare.withLock { spare in
            defer { spare = nil }
            return spare
        }
        let page = try ahead.flatMap { $0.connection === connection ? $0.take() : nil } ?? BrowserPage(connection: connection)
        spare.withLock { spare in
            if spare == nil, current.withLock({ $0 === connection }) { spare = SparePage(connection: connection) }
        }
        return page
    }
}
