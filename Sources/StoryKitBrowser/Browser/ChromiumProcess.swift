import Foundation
import StepLibrarySupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A headless Chromium started with `--remote-debugging-pipe`: it reads the
/// DevTools protocol on descriptor 3 and writes it on descriptor 4, both one
/// end of a socket pair whose other end this process keeps. It runs in a
/// process group of its own with a throw-away profile folder, and exits by
/// itself when its end of the pair reads end of file (this process died).
final class ChromiumProcess: Sendable {
    /// The browser's process id (the leader of its process group).
    let pid: pid_t
    /// This process's end of the socket pair.
    let descriptor: Int32
    /// The profile folder, removed when the browser is stopped.
    let profile: String
    /// The executable started.
    let executable: String

    /// The executables looked for on the PATH, best first. Chromium's
    /// headless shell (Debian's `chromium-headless-shell`, the build
    /// Playwright runs headless) comes first: it is the same engine without
    /// the desktop browser's windows and per-profile services, so a story's
    /// fresh browser context costs it about half the CPU (136 against
    /// 256 ms a story, `Benchmarks/browser/context_cost.py`).
    static let names = [
        "chromium-headless-shell", "chrome-headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
    ]

    /// Debian's headless shell behind its launcher script: started directly,
    /// so the browser is the process started (a script that does not `exec`
    /// would stay between them).
    static let debianHeadlessShell = "/usr/lib/chromium/chromium-headless-shell"

    /// The executable: `configured`, else `STORYKIT_CHROMIUM`, else Debian's
    /// headless shell, else the first of ``names`` on the PATH.
    static func findExecutable(_ configured: String?) -> String? {
        if let configured, !configured.isEmpty { return configured }
        if let path = ProcessInfo.processInfo.environment["STORYKIT_CHROMIUM"], !path.isEmpty { return path }
        if access(debianHeadlessShell, X_OK) == 0 { return debianHeadlessShell }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in names {
            for folder in folders where access("\(folder)/\(name)", X_OK) == 0 { return "\(folder)/\(name)" }
        }
        return nil
    }

    /// Starts the browser.
    /// - Throws: ``BrowserError`` when no socket pair, profile folder or process can be made.
    /// The size of every story's page, in CSS pixels.
    static let viewport = (width: 1280, height: 800)

    init(executable: String, windowSize: (Int, Int) = (viewport.width, viewport.height)) throws {
        self.executable = executable
        // Writing to a browser that died must fail the call, not end the worker.
        signal(SIGPIPE, SIG_IGN)
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw BrowserError("cannot make a socket pair for the browser: \(String(cString: strerror(errno)))")
        }
        // The browser's end must not be 3 or 4: dup2 onto itself would keep close-on-exec.
        let theirs = fcntl(pair[1], F_DUPFD_CLOEXEC, 10)
        close(pair[1])
        Self.removeStaleProfiles()
        var template = Array((NSTemporaryDirectory() + "/storykit-chromium-\(getpid())-XXXXXX").utf8CString)
        guard theirs >= 0, let made = mkdtemp(&template) else {
            close(pair[0])
            if theirs >= 0 { close(theirs) }
            throw BrowserError("cannot make a profile folder for the browser: \(String(cString: strerror(errno)))")
        }
        profile = String(cString: made)
        // Each story's browser context gets a window of its own, and Chromium
        // gave every window two renderer processes for its omnibox's popups
        // (WebUI, never shown headless) and one spare renderer for the next
        // navigation (which a context that lives for one story never takes):
        // three renderers started a story where one is used. Turned off, a
        // story starts one renderer; site isolation and one context per story
        // are unchanged. The desktop Chromium hides a story's page when the
        // page opens a new tab (a link with target=_blank), and a hidden page's
        // timers fire about once a second: the page script's waits (an
        // animation frame or 100 ms, a change or 30 ms) would take a second
        // each. The headless shell keeps every page visible; this flag keeps
        // a background page's timers on time in both (its animation frames
        // stay paused: a click waits its 100 ms instead).
        let arguments = [
            executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--user-data-dir=\(profile)",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
            "--disable-sync", "--disable-dev-shm-usage", "--mute-audio", "--hide-scrollbars", "--disable-breakpad",
            "--disable-component-update", "--disable-background-timer-throttling",
            "--disable-features=Translate,MediaRouter,OptimizationHints,"
                + "WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup,PreloadTopChromeWebUI,SpareRendererForSitePerProcess",
            "--window-size=\(windowSize.0),\(windowSize.1)", "about:blank",
        ]
        do {
            pid = try Self.spawn(arguments, socket: theirs, log: profile + ".log")
        } catch {
            close(pair[0])
            close(theirs)
            try? FileManager.default.removeItem(atPath: profile)
            throw error
        }
        close(theirs)
        descriptor = pair[0]
    }

    /// Removes the profiles of processes that have ended: a worker stopped
    /// by its supervisor runs no exit handler (its browser, reading end of
    /// file, exits by itself, but leaves its profile folder).
    static func removeStaleProfiles() {
        let folder = NSTemporaryDirectory()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix("storykit-chromium-") {
            let parts = name.split(separator: "-")
            guard parts.count >= 4, let owner = Int32(parts[2]), kill(owner, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    /// Where the browser's standard error goes: beside the profile, read for crash messages.
    var logPath: String { profile + ".log" }

    private static func spawn(_ arguments: [String], socket: Int32, log: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, socket, 3)
        posix_spawn_file_actions_adddup2(&actions, socket, 4)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnAttributes.setOwnGroupAndDefaultSignals(&attributes)
        let argv = arguments.map { strdup($0) } + [nil]
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = environment["DBUS_SESSION_BUS_ADDRESS"] ?? "disabled:"
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw BrowserError("cannot start \(arguments[0]): \(String(cString: strerror(result)))") }
        return child
    }

    /// How the process ended, waiting up to `seconds` for it; nil while it runs.
    func exitReason(waiting seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let reason = Self.reaped.withLock({ $0[pid] }) { return reason }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let reason = Self.describe(status)
                Self.reaped.withLock { $0[pid] = reason }
                return reason
            }
            if result < 0 { return "it is gone" }
            guard Date() < deadline else { return nil }
            usleep(10_000)
        }
    }

    private static let reaped = Mutex<[pid_t: String]>([:])

    private static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "it exited with status \((status >> 8) & 0xff)" }
        let name = signal == SIGKILL ? "SIGKILL" : signal == SIGSEGV ? "SIGSEGV" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)"
        return "it was killed by \(name)"
    }

    /// The last lines the browser wrote to standard error, for a crash message.
    func lastLogLines(_ count: Int = 5) -> String {
        guard let data = FileManager.default.contents(atPath: logPath) else { return "" }
        let lines = String(decoding: data.suffix(8192), as: UTF8.self).split(separator: "\n")
            .filter { !$0.contains("dbus") && !$0.contains("DBus") }
        return lines.suffix(count).joined(separator: "\n")
    }

    /// Ends the browser's whole process group, reaps it, and removes its profile.
    func stop() {
        // shutdown wakes the reading thread; close alone would leave its read waiting.
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
        if exitReason(waiting: 0) == nil {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            _ = exitReason(waiting: 5)
        } else {
            kill(-pid, SIGKILL)
        }
        try? FileManager.default.removeItem(atPath: profile)
        try? FileManager.default.removeItem(atPath: logPath)
    }
}

/// What went wrong with the browser or a page, as a step reports it.
public struct BrowserError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
