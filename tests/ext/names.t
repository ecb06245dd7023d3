#!/bin/sh
# demangle() and kernel_short_name() (ext/names.c): fixed cases, then every kernel of the real
# Nsight Systems exports (nsys_exports) against nsys's own shortName and demangledName.
. "${0%/*}/../lib.sh"

q() { sqlite -cmd ".load $EXT" :memory: "$1" 2>&1; }

# --- demangle ---
is "$(q "select demangle('_Z7add_onePKfPfi')")" "add_one(float const*, float*, int)" "demangle: a plain function"
is "$(q "select demangle('__Z7add_onePKfPfi')")" "add_one(float const*, float*, int)" "demangle: macOS extra underscore"
is "$(q "select demangle('_ZN3FooclEv')")" "Foo::operator()()" "demangle: operator()"
is "$(q "select demangle('_ZN12_GLOBAL__N_13fooEv')")" "(anonymous namespace)::foo()" "demangle: anonymous namespace"
is "$(q "select demangle('add_one')")" "add_one" "demangle: a C name comes back unchanged"
is "$(q "select demangle('i')")" "i" "demangle: not read as a mangled type"
is "$(q "select demangle('_Znot a name')")" "_Znot a name" "demangle: invalid mangling comes back unchanged"
is "$(q "select demangle(NULL) is NULL, typeof(demangle(42)), demangle('')")" "1|integer|" "demangle: NULL, numbers and '' pass through"
is "$(q "select length(demangle('_Z3foo' || printf('%.40000c', 'i')))")" "40006" \
	"demangle: an overlong name (40006 bytes) comes back unchanged"
is "$(q "select length(demangle('_Z3foo' || printf('%.1018c', 'i')))")" "5093" \
	"demangle: a 1024-byte name is demangled"
# GNU's demangler refuses names over 1024 bytes (libiberty PR 87675 stack guard): documented.
is "$(q "select demangle(x) = x from (select '_Z3foo' || printf('%.1019c', 'i') as x)")" "1" \
	"demangle: a 1025-byte name comes back unchanged (C++ runtime limit, docs/sql-functions.md)"
is "$(q "select length(demangle('_ZN' || replace(printf('%.3000c', 'x'), 'x', '3Foo') || 'Ev'))")" "12005" \
	"demangle: nesting beyond the runtime's recursion limit comes back unchanged"

# --- kernel_short_name: fixed cases ---
n=0
while IFS='|' read -r input want; do
	n=$((n + 1))
	got=$(q "select kernel_short_name('$(printf '%s' "$input" | sed "s/'/''/g")')")
	is "$got" "$want" "kernel_short_name $n: $input"
done <<'CASES'
void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)|vectorized_elementwise_kernel
void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, std::array<char *, (unsigned long)1>>(int, T2, T3)|vectorized_elementwise_kernel
_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_T1_|vectorized_elementwise_kernel
void (anonymous namespace)::softmax_warp_forward<float, float, float, 6, false, false>(float*, float const*, int, int, int, bool const*, int, bool)|softmax_warp_forward
void <unnamed>::softmax_warp_forward<float, float, float, (int)6, (bool)0, (bool)0>(T2 *, const T1 *, int, int, int, const bool *, int, bool)|softmax_warp_forward
void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<long> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<long> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<long> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<long> const&)::{lambda(int)#1})|elementwise_kernel
void cutlass::Kernel2<cutlass_80_tensorop_s16816gemm_f16_128x128_32x4_nn_align8>(cutlass_80_tensorop_s16816gemm_f16_128x128_32x4_nn_align8::Params)|Kernel2
std::enable_if<(N > 2), void>::type ns::foo<3>(int)|foo
add_one(float const*, float*, int)|add_one
Foo::operator()(int) const|operator()
at::native::(anonymous namespace)::foo()::{lambda(int)#1}::operator()(int) const|operator()
bool operator< <int>(Foo<int> const&, Foo<int> const&)|operator<
std::ostream& operator<<(std::ostream&, Foo const&)|operator<<
bool Foo::operator>>=(int) volatile &&|operator>>=
void* operator new[](unsigned long)|operator new[]
foo(int) [clone .cold]|foo
std::string ns::name[abi:cxx11](int)|name
int (*get_handler(int))(double)|get_handler
sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8_stage3_warpsize1x4x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas|sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8_stage3_warpsize1x4x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas
triton_poi_fused_add_0|triton_poi_fused_add_0
nvjet_hsh_256x128_64x4_1x2_h_bz_coopA_NNT|nvjet_hsh_256x128_64x4_1x2_h_bz_coopA_NNT
foo<int(|foo<int(
)))|)))
CASES
is "$(q "select kernel_short_name(NULL) is NULL, typeof(kernel_short_name(7)), kernel_short_name('')")" "1|integer|" \
	"kernel_short_name: NULL, numbers and '' pass through"
is "$(q "select length(kernel_short_name(printf('f%.20000c', '<') || printf('%.20000c', '>') || '()'))")" "40003" \
	"kernel_short_name: nesting too deep comes back unchanged"
is "$(q "select kernel_short_name('void f<' || printf('%.300c', '<') || printf('%.300c', '>') || '>(int)')")" "f" \
	"kernel_short_name: 300 nested template levels"

# --- every kernel in the real nsys exports ---
[ -d "$DATA/nsys" ] || { done_testing; }
if ! command -v c++filt >/dev/null 2>&1; then
	skip "demangle() equals c++filt for every mangled kernel name" "c++filt (binutils) not installed"
	cxxfilt=""
else
	cxxfilt=yes
fi
py - "$EXT" "$(nsys_exports)" "$cxxfilt" >"$TMP/out" 2>"$TMP/err" <<'PY'
import glob, os, re, sqlite3, subprocess, sys
ext, ddir, cxxfilt = sys.argv[1:4]

Q = """SELECT s.value, d.value, m.value,
       kernel_short_name(d.value), kernel_short_name(m.value), demangle(m.value)
FROM CUPTI_ACTIVITY_KIND_KERNEL k
JOIN StringIds s ON s.id = k.shortName
JOIN StringIds d ON d.id = k.demangledName
JOIN StringIds m ON m.id = k.mangledName"""

# Notation differences between GNU's demangler (ours) and the one nsys uses for demangledName.
CLASSES = [
    ("anonymous namespace: '(anonymous namespace)' vs '<unnamed>'",
     lambda s: s.replace("(anonymous namespace)", "<unnamed>")),
    ("lambdas: '{lambda(float)#1}' vs '[lambda(float) (instance 1)]'",
     lambda s: re.sub(r"\{lambda\(([^{}]*?)\)#(\d+)\}", r"[lambda(\1) (instance \2)]", s)),
    ("integer template arguments: '4', '2ul', 'false' vs '(int)4', '(unsigned long)2', '(bool)0'",
     lambda s: re.sub(r"\(int\)(-?\d+)", r"\1", re.sub(r"\(unsigned int\)(\d+)", r"\1u",
               re.sub(r"\(unsigned long\)(\d+)", r"\1ul", re.sub(r"\(long\)(-?\d+)", r"\1l",
               s.replace("(bool)0", "false").replace("(bool)1", "true")))))),
    ("cv and spacing: 'T const&', 'char*', '> >' vs 'const T &', 'char *', '>>'",
     lambda s: re.sub(r"const ([\w:<>, ]+?) ?([&*])", r"\1 const\2", s).replace(" ", "")),
    ("return type of an enclosing function template: nsys prints 'void f<...>(...)::[lambda]'",
     lambda s: re.sub(r"([<,])void(?=[A-Za-z_])", r"\1", s)),
]

def params_collapsed(s):
    """Parameter lists -> '()': nsys writes template parameters (T1, T2 *) in them, GNU the
    substituted types."""
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "(" and i > 0 and (s[i - 1].isalnum() or s[i - 1] in "_>])"):
            depth, j = 0, i
            while j < len(s):
                depth += {"(": 1, ")": -1}.get(s[j], 0)
                if depth == 0:
                    break
                j += 1
            out.append("()")
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)

n = short_d = short_m = 0
bad_d, bad_m, bad_dem, bad_skel, bad_filt = [], [], [], [], []
classes_seen, exact_z, exact_c, total_z = {}, 0, 0, 0
names = set()
for f in sorted(p for p in ddir.split("\n") if p):
    con = sqlite3.connect("file:%s?mode=ro" % f, uri=True)
    con.enable_load_extension(True)
    con.load_extension(ext)
    try:
        rows = con.execute(Q).fetchall()
    except sqlite3.OperationalError:
        continue
    for short, dem, mangled, ks_d, ks_m, ours in rows:
        n += 1
        if ks_d != short:
            bad_d.append("%s: %r -> %r, nsys %r" % (os.path.basename(f), dem, ks_d, short))
        if ks_m != short:
            bad_m.append("%s: %r -> %r, nsys %r" % (os.path.basename(f), mangled, ks_m, short))
        names.add((mangled, dem, ours))
for mangled, dem, ours in sorted(names):
    if not mangled.startswith("_Z"):
        if ours != dem:
            bad_dem.append("C name %r: demangle gave %r, nsys %r" % (mangled, ours, dem))
        else:
            exact_c += 1
        continue
    total_z += 1
    if ours == dem:
        exact_z += 1
        continue
    a, b = ours, dem
    for label, fn in CLASSES:
        a2, b2 = fn(a), fn(b)
        if a2 != a or b2 != b:
            classes_seen[label] = classes_seen.get(label, 0) + 1
        a, b = a2, b2
    if a != b:
        if params_collapsed(a) == params_collapsed(b):
            lbl = "parameter lists: nsys prints template parameters (T2, const T1 &), GNU the types"
            classes_seen[lbl] = classes_seen.get(lbl, 0) + 1
        else:
            bad_skel.append("%r: ours %r, nsys %r" % (mangled, ours, dem))
    if cxxfilt:
        ref = subprocess.run(["c++filt", mangled], capture_output=True, text=True).stdout.rstrip("\n")
        if ref != ours:
            bad_filt.append("%r: ours %r, c++filt %r" % (mangled, ours, ref))

def line(name, bad):
    print("%s\t%s" % (name, "ok" if not bad else "%d mismatches, e.g. %s" % (len(bad), bad[0])))
print("#\tkernel rows: %d; distinct names: %d (%d C++-mangled)" % (n, len(names), total_z))
line("kernel_short_name(demangledName) = nsys shortName, every kernel row (%d)" % n, bad_d)
line("kernel_short_name(mangledName) = nsys shortName, every kernel row (%d)" % n, bad_m)
line("demangle(mangledName) = nsys demangledName exactly for the C names (%d)" % exact_c, bad_dem)
line("demangle(mangledName) = nsys demangledName for C++ names up to the known notation classes (%d)" % total_z, bad_skel)
if cxxfilt:
    line("demangle(mangledName) = c++filt output for every C++ name (%d)" % total_z, bad_filt)
print("#\tC++ names equal to nsys demangledName character for character: %d of %d" % (exact_z, total_z))
for label, count in sorted(classes_seen.items()):
    print("#\tnotation class in %d names: %s" % (count, label))
PY
is "$?" 0 "the Python comparison ran"
[ -s "$TMP/err" ] && sed 's/^/# /' "$TMP/err"
while IFS="$(printf '\t')" read -r name result; do
	if [ "$name" = "#" ]; then
		echo "# $result"
	else
		is "$result" ok "$name"
	fi
done <"$TMP/out"

done_testing
