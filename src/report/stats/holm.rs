//! Holm's step-down correction of p-values for multiple comparisons: with m tests and the
//! p-values in ascending order p₍₁₎ ≤ … ≤ p₍ₘ₎, the adjusted p₍ᵢ₎ is
//! max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎). It controls the family-wise error rate as
//! Bonferroni's does, and rejects at least as much. The same numbers as R's
//! `p.adjust(p, "holm")` and statsmodels' `multipletests(p, method="holm")`.

/// The Holm-adjusted `p`, in the same order; tests without a p-value stay without one and
/// do not count in m.
pub fn holm(p: &[Option<f64>]) -> Vec<Option<f64>> {
    let mut order: Vec<usize> = (0..p.len()).filter(|&i| p[i].is_some()).collect();
    order.sort_by(|&a, &b| p[a].unwrap_or(1.0).total_cmp(&p[b].unwrap_or(1.0)));
    let m = order.len();
    let mut adjusted = vec![None; p.len()];
    let mut running: f64 = 0.0;
    for (j, &i) in order.iter().enumerate() {
        let scaled = ((m - j) as f64 * p[i].unwrap_or(1.0)).min(1.0);
        running = running.max(scaled);
        adjusted[i] = Some(running);
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_by_hand() {
        // Four p-values and one test without: m = 4.
        let p = [Some(0.04), None, Some(0.01), Some(0.5), Some(0.02)];
        // Sorted: 0.01, 0.02, 0.04, 0.5 → 4·0.01, 3·0.02, 2·0.04, 1·0.5 = 0.04, 0.06, 0.08,
        // 0.5.
        let a = holm(&p);
        let expected = [Some(0.08), None, Some(0.04), Some(0.5), Some(0.06)];
        for (x, y) in a.iter().zip(expected) {
            match (x, y) {
                (Some(x), Some(y)) => assert!((x - y).abs() < 1e-15, "{a:?}"),
                _ => assert_eq!(*x, y),
            }
        }
        // The running maximum: 0.03·3 = 0.09 stands above 0.04·2 = 0.08.
        let a = holm(&[Some(0.03), Some(0.04), Some(0.9)]);
        assert!((a[1].unwrap() - 0.09).abs() < 1e-15, "{a:?}");
        // Capped at 1.
        assert_eq!(holm(&[Some(0.6), Some(0.7)]), [Some(1.0), Some(1.0)]);
    }
}
