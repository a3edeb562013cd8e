//! Makes the `heterodox-net` binary load libtorch's CUDA backend.
//!
//! Nothing in our code calls into `libtorch_cuda.so` directly: it registers
//! the CUDA device when it is loaded. The linker's default `--as-needed`
//! would drop it, and `tch::Cuda::is_available()` would then be false even on
//! a GPU machine. Linking `libtorch.so` (which depends on the CUDA library)
//! with `--no-as-needed` keeps it, as tch's own binaries do.
//!
//! Scoped to `heterodox-net`, the binary that runs networks: `heterodox`
//! itself does not link libtorch at all (it execs `heterodox-net` for the
//! network subcommands), and the Python extension never links it.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-link-arg-bin=heterodox-net=-Wl,--no-as-needed");
    println!("cargo:rustc-link-arg-bin=heterodox-net=-ltorch");
}
