# Sourced by the build scripts: ccache (when installed) keyed by paths relative to the checkout, so
# that a fresh clone in another folder (CI) hits what an earlier clone compiled. CCACHE_BASEDIR
# makes the compiler's paths relative to the build folder (objects are the same in every clone);
# CCACHE_NOHASHDIR leaves the working directory out of the key (debug info names it).
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(pwd -P)}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
