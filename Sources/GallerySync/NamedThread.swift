#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GallerySystem

/// Long-lived threads of the process carry short names, so `top -H`, `perf` and
/// `/proc/PID/task/*/comm` tell the transfer loops, the decode workers and the rest apart.
///
/// The name is set from inside the thread (see ``setCurrentName(_:)``). Linux keeps at most 15 bytes
/// and refuses a longer name outright (ERANGE), and a thread that is not named inherits the name of
/// the thread that started it, so every name here is checked against that limit when it is made.
public enum NamedThread {
    /// The longest name Linux keeps (16 bytes with the terminating zero).
    public static let maxNameLength = 15

    /// Starts a thread named `name` (at most ``maxNameLength`` bytes) that runs `body`.
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        precondition(name.utf8.count <= maxNameLength, "thread name '\(name)' is longer than \(maxNameLength) bytes")
        let thread = Thread {
            setCurrentName(name)
            body()
        }
        thread.name = name
        thread.start()
    }

    /// Names the calling thread; returns false if the system refused the name.
    @discardableResult
    public static func setCurrentName(_ name: String) -> Bool {
        // pthread_setname_np and prctl(PR_SET_NAME) are not callable from Swift's Glibc module (one is
        // behind _GNU_SOURCE, the other variadic); the kernel takes the same name written here.
        #if canImport(Glibc)
        let path = "/proc/thread-self/comm"
        guard let fd = try? Syscall.open(path, O_WRONLY) else { return false }
        defer { Syscall.closeQuietly(fd) }
        // One write(2): the kernel takes the name whole or refuses it (ERANGE).
        return (try? Syscall.writeAll(fd, Array(name.utf8.prefix(maxNameLength)), path: path)) != nil
        #else
        return false
        #endif
    }

    /// The calling thread's name as the system holds it.
    public static var currentName: String {
        // pthread_getname_np is not in Swift's Glibc module; the kernel shows the same name here.
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return comm.hasSuffix("\n") ? String(comm.dropLast()) : comm
    }
}
