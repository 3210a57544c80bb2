import Foundation

extension InputValue {
    /// The value as boxes `[[x0, y0, x1, y1], ...]` (fractions of the image): a list of lists of numbers
    /// (Parquet's `list<list<double>>`, DataComp's `face_bboxes`), or JSON text of one (a CSV or JSON input);
    /// nil for anything else, whose row is then not blurred.
    var boxes: [[Double]]? {
        switch self {
        case .list(let items):
            var boxes: [[Double]] = []
            for item in items {
                guard case .list(let numbers) = item else { return nil }
                var box: [Double] = []
                for number in numbers {
                    switch number {
                    case .double(let x): box.append(x)
                    case .int(let n): box.append(Double(n))
                    default: return nil
                    }
                }
                boxes.append(box)
            }
            return boxes
        case .string(let text):
            guard text.hasPrefix("["), let data = text.data(using: .utf8),
                  let parsed = try? JSONSerialization.jsonObject(with: data) as? [[NSNumber]] else { return nil }
            return parsed.map { $0.map(\.doubleValue) }
        default:
            return nil
        }
    }
}
