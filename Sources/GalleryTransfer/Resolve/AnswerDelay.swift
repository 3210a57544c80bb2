/// How long the nameservers take to answer, as TCP keeps its round-trip time (RFC 6298: a smoothed mean
/// and mean deviation, gains 1/8 and 1/4), and from it when an unanswered try is probably lost. A
/// resolver that drops questions past its limit says nothing: the try's own timeout (a second, then two,
/// then four) would show the loss only that late, while the pace went on past the limit for all that
/// time. An answer normally comes within the smoothed delay plus four deviations, so a try older than
/// that (never sooner than `floor`) is taken as lost for the pace's sake, while it stays outstanding and
/// its answer is still accepted until its timeout.
struct AnswerDelay {
    private(set) var smoothed: Double?
    private(set) var deviation: Double = 0
    let floor: Double

    init(floor: Double) {
        self.floor = floor
    }

    /// An answer to a question asked once (an answer to a question asked again could be to either try:
    /// Karn's rule leaves those out).
    mutating func answered(after seconds: Double) {
        guard let s = smoothed else {
            smoothed = seconds
            deviation = seconds / 2
            return
        }
        deviation = 0.75 * deviation + 0.25 * abs(s - seconds)
        smoothed = 0.875 * s + 0.125 * seconds
    }

    /// Seconds after which a try still unanswered is probably lost; nil before the first answer (until
    /// then only the try's timeout tells).
    var suspectAfter: Double? {
        smoothed.map { max(floor, $0 + 4 * deviation) }
    }
}
