/// Where each photo that the near pass joined to a group lies on the group's first photo: the alignment
/// its ``CopyCheck/screen(_:_:)`` found, kept beside the link (32 bytes and two bits a link). Measuring a grouped
/// photo against the group's shown photo then goes on from what the pass found instead of searching
/// again:
/// - shown photo = the group's first: the member's own search, finished (the finer steps, if the
///   screen stopped early) and measured; exactly ``CopyCheck`` of the two.
/// - otherwise: both photos' alignments on the first combined into an estimate of the member's on the
///   shown photo, and the search's descent from there (no profile fit).
struct GroupAlignments: Sendable {
    private var parameters: [SIMD4<Double>] = []
    private var finest = PhotoBits()
    /// Whether the screen stopped at the profile fit (a clear copy there), before any step.
    private var fitted = PhotoBits()

    /// No alignments.
    init() {}

    /// Adds the alignment of the next link: one the screen left (at the profile fit, after its steps of
    /// 0.02, or finished).
    mutating func append(_ alignment: CopyCheck.Alignment) {
        precondition([0, 0.01, 0.02].contains(alignment.nextStep), "an alignment the screen left")
        if parameters.count == parameters.capacity { parameters.reserveCapacity(parameters.count + parameters.count / 8 + 64) }
        parameters.append(alignment.parameters)
        finest.append(alignment.isFinest)
        fitted.append(alignment.nextStep == 0.02)
    }

    /// The alignment of link `index`.
    subscript(index: Int) -> CopyCheck.Alignment {
        CopyCheck.Alignment(parameters[index], nextStep: finest[index] ? 0 : fitted[index] ? 0.02 : 0.01)
    }

    /// Bytes held (capacities).
    var byteCount: Int { parameters.capacity * MemoryLayout<SIMD4<Double>>.stride + finest.byteCount + fitted.byteCount }

    /// `member` measured against `shown`, two photos of one group with different bytes, from their
    /// links' alignments on the group's first photo (nil: the photo is the first, or has its bytes).
    func check(_ shown: CopyCheck.Frame, _ member: CopyCheck.Frame, shownLink: Int?, memberLink: Int?) -> CopyCheck {
        switch (shownLink, memberLink) {
        case (nil, let link?):
            return CopyCheck(shown, member, from: self[link])
        case (let link?, let other):
            return CopyCheck(shown, member, from: self[link].relative(other.map { self[$0] }))
        case (nil, nil):
            return CopyCheck(shown, member)  // both have the first photo's bytes: not asked for
        }
    }
}
