//! Giving a report's freed memory back to the system. glibc serves a large block from
//! its own mapping only while the block is above a bound that it raises each time such a
//! block is freed (up to 32 MiB); after that, the tens of megabytes a report's passes
//! use and free (sort orders, per-instance lists) come from the heap, where freed memory
//! mostly stays in the process. A fixed bound of 128 KiB keeps every large block in a
//! mapping of its own, unmapped when freed, so that a study's report holds at its peak
//! what it uses, not what it once used. (Measured on a 10,000,000-row study: 1,384 MB
//! peak RSS without, 1,228 MB with; docs/performance.md.)

/// Large blocks mapped on their own and returned when freed (glibc; elsewhere nothing).
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; it is called before the report's
    // threads start and takes plain integers.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}
