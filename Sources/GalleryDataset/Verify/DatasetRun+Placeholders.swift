import GallerySync

/// A finished row on its way into its shard.
struct ReadyRow: Sendable {
    let row: DatasetRow
    let key: String
    let outcome: RowOutcome
}

/// A shard's success rows whose content another URL of their host served too, held until the shard closes
/// (at most ``PlaceholderPolicy/heldRowsPerShard``, the oldest written first past that).
final class HeldRows: Sendable {
    private let rows = Locked<[ReadyRow]>([])

    /// Holds `row`; returns the oldest held row when more than `limit` are.
    func hold(_ row: ReadyRow, limit: Int) -> ReadyRow? {
        rows.withLock { list in
            list.append(row)
            return list.count > limit ? list.removeFirst() : nil
        }
    }

    /// Every held row, in the order held; none is held after.
    func drain() -> [ReadyRow] { rows.withLock { list in defer { list = [] }; return list } }
}

extension DatasetRun {
    /// What to write now of a finished row: a placeholder's row as `failed_to_download` "placeholder image"
    /// (no image), a suspect one nothing (held: it comes back from ``release(_:)``, or as the oldest held when
    /// the shard holds too many), any other as it is.
    func admit(_ ready: ReadyRow, held: HeldRows) -> [ReadyRow] {
        guard let detector = placeholders, ready.outcome.status == .success, let url = ready.row.url,
              let digest = ready.outcome.digest else { return [ready] }
        switch detector.observe(url: url, digest: digest) {
        case .clear: return [ready]
        case .placeholder: return [Self.placeholder(ready)]
        case .suspect:
            guard let oldest = held.hold(ready, limit: detector.policy.heldRowsPerShard) else { return [] }
            return [resolved(oldest)]
        }
    }

    /// The held rows at their shard's close, each a placeholder's when its content became one meanwhile.
    func release(_ held: HeldRows) -> [ReadyRow] { held.drain().map(resolved) }

    private func resolved(_ ready: ReadyRow) -> ReadyRow {
        guard let detector = placeholders, let url = ready.row.url, let digest = ready.outcome.digest,
              detector.isPlaceholder(url: url, digest: digest) else { return ready }
        return Self.placeholder(ready)
    }

    private static func placeholder(_ ready: ReadyRow) -> ReadyRow {
        ReadyRow(row: ready.row, key: ready.key, outcome: .failed(.failedToDownload, PlaceholderDetector.message))
    }
}
