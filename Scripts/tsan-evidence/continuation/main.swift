// Does ThreadSanitizer see a continuation hand-off from a plain thread to the awaiting task?
//
// A thread fills a buffer, then resumes the continuation; the task reads the buffer after the await.
//   late          the thread waits 100 ms first, so the task has suspended: the resume enqueues it
//                 (the runtime annotates swift_task_enqueue / swift_job_run): no report (unless a
//                 very loaded machine keeps the task from suspending for 100 ms).
//   early         the continuation's body waits until the thread has resumed, so the resume comes
//                 before swift_continuation_await, which then goes on inline with no TSan annotation:
//                 a race is reported on the buffer every run, although the ordering is the same.
//   early-handoff as early, through GallerySync's withHandOffContinuation: no report.
import Glibc

final class Job: @unchecked Sendable {
    var bytes: [UInt8] = []
    var resume: (@Sendable () -> Void)?
    let late: Bool
    init(late: Bool) { self.late = late }
}

func startThread(_ job: Job) {
    var t = pthread_t()
    pthread_create(&t, nil, { raw in
        let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
        if job.late { usleep(100_000) }
        for i in 0..<1024 { job.bytes.append(UInt8(truncatingIfNeeded: i)) }
        job.resume!()
        return nil
    }, Unmanaged.passRetained(job).toOpaque())
    pthread_detach(t)
}

let mode = CommandLine.arguments.dropFirst().first ?? "early"
let total = await Task.detached {
    var total = 0
    for _ in 0..<20 {
        let job = Job(late: mode == "late")
        if mode == "early-handoff" {
            await withHandOffContinuation { (c: HandOffContinuation<Void, Never>) in
                job.resume = { c.resume() }
                startThread(job)
                usleep(20_000)  // the thread resumes while we are still in here
            }
        } else {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                job.resume = { c.resume() }
                startThread(job)
                if mode == "early" { usleep(20_000) }
            }
        }
        total += job.bytes.count
    }
    return total
}.value
print(mode, "total", total, "expected", 20 * 1024)
