// Malformed programs: each must stop with `t.pto:LINE:COL: message`, the
// source line and a caret, never a crash or a hang.
#include <gtest/gtest.h>

#include "tests/sim/frontend/frontend_test_util.h"

namespace ptosim::test {
namespace {

struct Bad {
  const char* name;
  const char* program;
  const char* where;    // "t.pto:L:C"
  const char* message;  // substring of the message
};

const char* kPrelude = "";

const Bad kBad[] = {
    // ---- lexical / syntax / indentation ----
    {"tab_indent", "for i in range(2):\n\tpass\n", "t.pto:2:1", "tab in indentation"},
    {"bad_dedent", "for i in range(2):\n    x = 1\n  y = 2\n", "t.pto:3:3", "unindent does not match"},
    {"unexpected_indent", "x = 1\n    y = 2\n", "t.pto:2:5", "unexpected indent"},
    {"missing_block", "for i in range(2):\nx = 1\n", "t.pto:2:1", "expected an indented block"},
    {"missing_colon", "if True\n    pass\n", "t.pto:1:8", "expected ':'"},
    {"unclosed_paren", "x = (1 + 2\ny = 3\n", "t.pto:1:5", "'(' was never closed"},
    {"unmatched_bracket", "x = 1]\n", "t.pto:1:6", "unmatched ']'"},
    {"mismatched_bracket", "x = [1, 2)\n", "t.pto:1:10", "does not match opening '['"},
    {"unterminated_string", "x = \"abc\n", "t.pto:1:5", "unterminated string"},
    {"invalid_char", "x = 1 $ 2\n", "t.pto:1:7", "invalid character '$'"},
    {"bad_number", "x = 12abc\n", "t.pto:1:7", "invalid number literal"},
    {"while_loop", "while True:\n    pass\n", "t.pto:1:1", "'while' loops are not part of the PTO language"},
    {"trailing_garbage", "x = 1 2\n", "t.pto:1:7", "expected end of line"},
    {"assign_to_call", "f() = 3\n", "t.pto:1:1", "cannot assign to a function call"},
    {"assign_to_literal", "3 = x\n", "t.pto:1:1", "cannot assign to an expression"},
    {"else_without_if", "else:\n    pass\n", "t.pto:1:1", "'else' without a matching 'if'"},
    {"param_no_default", "param M\n", "t.pto:1:8", "expected '=' after the parameter name"},
    {"positional_after_kw", "x = max(a=1, 2)\n", "t.pto:1:14", "positional argument follows keyword argument"},
    {"set_literal", "x = {1, 2}\n", "t.pto:1:6", "set literals are not part of the PTO language"},
    {"empty_expression", "x =\n", "t.pto:1:4", "expression expected"},
    // ---- the article's Python: imports, dicts, **kwargs, keyword-only parameters ----
    {"import_numpy", "import numpy as np\n", "t.pto:1:8", "only 'import pto' and 'import pypto as pto'"},
    {"import_pypto_bare", "import pypto\n", "t.pto:1:8", "write 'import pypto as pto'"},
    {"import_alias", "import pypto as pp\n", "t.pto:1:17", "must be imported as 'pto'"},
    {"dict_comprehension", "x = {i: i for i in range(3)}\n", "t.pto:1:11", "dict comprehensions are not supported"},
    {"dict_unhashable_key", "d = {[1]: 2}\n", "t.pto:1:6", "unhashable type: 'list'"},
    {"dict_missing_key", "d = {\"a\": 1}\nx = d[\"b\"]\n", "t.pto:2:7", "key 'b' is not in the dict"},
    {"dict_unknown_method", "d = {}\nd.pop(\"a\")\n", "t.pto:2:1", "'dict' object has no method 'pop'"},
    {"splat_not_dict", "def f(**kw):\n    return kw\nx = f(**[1])\n", "t.pto:3:9", "argument after ** must be a dict"},
    {"splat_key_not_str", "def f(**kw):\n    return kw\nx = f(**{1: 2})\n", "t.pto:3:9", "keywords must be strings"},
    {"splat_repeats_keyword", "def f(a=1):\n    return a\nx = f(a=1, **{\"a\": 2})\n", "t.pto:3:12",
     "got multiple values for keyword argument 'a'"},
    {"splat_unknown_keyword_builtin", "A = pto.tensor(**{\"shape\": [4], \"memry\": \"global\"})\n", "t.pto:1:16",
     "unexpected keyword argument 'memry'"},
    {"star_args_call", "x = max(*[1, 2])\n", "t.pto:1:9", "argument unpacking (*args) is not supported"},
    {"keyword_only_by_position", "def f(a, *, b=1):\n    return a\nx = f(1, 2)\n", "t.pto:3:5",
     "takes 1 positional argument but 2 were given"},
    {"keyword_only_missing", "def f(*, b):\n    return b\nx = f()\n", "t.pto:3:5",
     "missing required keyword-only argument 'b'"},
    {"param_after_kwargs", "def f(**kw, a):\n    pass\n", "t.pto:1:13", "no parameter may follow '**kw'"},
    // ---- scopes that would silently do nothing ----
    {"tile_unknown_key", "A = pto.tensor([4, 4])\nwith pto.tile(MM=2):\n    B = pto.matmul(A, A)\n", "t.pto:2:15",
     "unknown tile key 'MM' (valid: M, N, K"},
    {"tile_unknown_key_splat", "d = {\"tile_q\": 2}\nwith pto.tile(**d):\n    pass\n", "t.pto:2:15",
     "unknown tile key 'tile_q'"},
    {"tile_key_twice", "with pto.tile(M=2, tile_m=4):\n    pass\n", "t.pto:1:20", "tile_m and M both set the tile size M"},
    {"parallel_without_loop", "with pto.parallel(axis=\"block\", num=2):\n    x = 1\n", "t.pto:1:6",
     "pto.parallel has no `for` loop directly inside its block"},
    {"parallel_loop_not_direct", "with pto.parallel(num=2):\n    if True:\n        for i in range(2):\n            pass\n",
     "t.pto:1:6", "no `for` loop directly inside"},
    // ---- names, ops, keywords, arity (static) ----
    {"unknown_name", "x = 1\ny = x + z\n", "t.pto:2:9", "name 'z' is not defined"},
    {"unknown_op", "A = pto.tensor([4], pto.float32)\nB = pto.matmull(A, A)\n", "t.pto:2:9",
     "unknown operation 'pto.matmull'"},
    {"unknown_ref", "A = pto.tensor([4, 4])\nB = pto.ref.matmull(A, A)\n", "t.pto:2:13",
     "unknown operation 'pto.ref.matmull'"},
    {"unknown_keyword", "A = pto.tensor([4], pto.float32, memry=\"global\")\n", "t.pto:1:34",
     "unexpected keyword argument 'memry'"},
    {"builtin_arity", "x = abs(1, 2)\n", "t.pto:1:5", "abs() takes 1 positional argument but 2 were given"},
    {"pto_missing_arg", "A = pto.tensor([4, 4])\nC = pto.matmul(A)\n", "t.pto:2:5", "missing required argument 'b'"},
    {"break_outside_loop", "break\n", "t.pto:1:1", "'break' outside loop"},
    {"return_outside_function", "return 1\n", "t.pto:1:1", "'return' outside function"},
    {"scope_outside_with", "s = pto.scope(\"x\")\n", "t.pto:1:5", "is a scope: use it as `with"},
    {"with_non_scope", "with max(1, 2):\n    pass\n", "t.pto:1:6", "'with' needs a pto scope"},
    {"nested_param", "for i in range(2):\n    param M = 3\n", "t.pto:2:5", "must be at the top level"},
    {"bad_dtype_name", "A = pto.tensor([4], pto.float64)\n", "t.pto:1:25", "unsupported dtype 'pto.float64'"},
    // ---- runtime: functions ----
    {"wrong_arity_user", "def f(a, b=1):\n    return a + b\nx = f(1, 2, 3)\n", "t.pto:3:5",
     "f() takes 2 positional arguments but 3 were given"},
    {"missing_arg_user", "def f(a, b):\n    return a + b\nx = f(1)\n", "t.pto:3:5", "missing required argument 'b'"},
    {"bad_kw_user", "def f(a):\n    return a\nx = f(a=1, c=2)\n", "t.pto:3:5", "unexpected keyword argument 'c'"},
    {"recursion", "def f(n):\n    return f(n + 1)\nx = f(0)\n", "t.pto:2:12", "recursion depth limit exceeded"},
    {"call_non_function", "x = 3\ny = x(1)\n", "t.pto:2:5", "'int' object is not callable"},
    {"used_before_assignment", "def f():\n    y = x\n    x = 1\nf()\n", "t.pto:2:9", "referenced before assignment"},
    // ---- runtime: arithmetic ----
    {"int_div_zero", "x = 0\ny = 7 // x\n", "t.pto:2:7", "integer division by zero"},
    {"div_zero", "x = 0\ny = 1 / x\n", "t.pto:2:7", "division by zero"},
    {"mod_zero", "x = 0\ny = 5 % x\n", "t.pto:2:7", "modulo by zero"},
    {"int_overflow", "x = 2 ** 62\ny = x * 4\n", "t.pto:2:7", "integer overflow"},
    // The same errors from the int paths of a chain and a comparison (int_expr.h).
    {"int_overflow_in_chain", "x = 2 ** 62\ny = x * 4 - x\n", "t.pto:2:7", "integer overflow"},
    {"int_overflow_in_compare", "x = 2 ** 62\nprint(0 <= x * 4 - 1 < 3)\n", "t.pto:2:14", "integer overflow"},
    {"undefined_in_chain", "y = qq * 2 + 1\n", "t.pto:1:5", "name 'qq' is not defined"},
    {"undefined_in_compare", "print(0 <= zz < 3)\n", "t.pto:1:12", "name 'zz' is not defined"},
    {"unbound_in_guard", "x = 2\nif x < 5 and zz < 1:\n    pass\nzz = 0\n", "t.pto:2:14",
     "name 'zz' is not defined (used before it is assigned)"},
    {"round_overflow", "x = 1e300\ny = round(x)\n", "t.pto:2:11", "integer overflow"},
    {"bad_operands", "x = \"a\" - 1\n", "t.pto:1:9", "unsupported operand types for -"},
    {"assert_fails", "x = 3\nassert x == 4, \"x must be 4\"\n", "t.pto:2:1", "assertion failed: x must be 4"},
    {"unpack_mismatch", "a, b = 1, 2, 3\n", "t.pto:1:1", "cannot unpack 3 values into 2 targets"},
    {"range_float", "for i in range(2.5):\n    pass\n", "t.pto:1:16", "expected an integer, found float"},
    {"range_step_zero", "for i in range(0, 4, 0):\n    pass\n", "t.pto:1:22", "step must not be zero"},
    // ---- runtime: tensors ----
    {"index_oob", "A = pto.tensor([4, 8])\nx = A[1, 8]\n", "t.pto:2:10",
     "index 8 is out of bounds for dimension 1 with size 8"},
    {"index_oob_write", "A = pto.tensor([4, 8])\ni = 4\nA[i, 0] = 1.0\n", "t.pto:3:3",
     "index 4 is out of bounds for dimension 0 with size 4"},
    {"index_oob_aug", "A = pto.tensor([4, 8])\ni = 0\nj = -9\nA[i, j] += 1.0\n", "t.pto:4:6",
     "index -9 is out of bounds for dimension 1 with size 8"},
    // `A[i] += x` (fast path) and `A[0] += x` (general path) both point at the '['.
    {"aug_bad_operand_fast", "A = pto.tensor([4])\ni = 0\nA[i] += \"a\"\n", "t.pto:3:2", "unsupported operand types for +"},
    {"aug_bad_operand", "A = pto.tensor([4])\nA[0] += \"a\"\n", "t.pto:2:2", "unsupported operand types for +"},
    {"too_many_indices", "A = pto.tensor([4])\nx = A[1, 2]\n", "t.pto:2:6", "too many indices"},
    {"float_index", "A = pto.tensor([4])\nx = A[1.5]\n", "t.pto:2:7", "expected an integer, found float"},
    {"shape_mismatch", "A = pto.tensor([4, 8])\nB = pto.tensor([4, 8])\nC = pto.matmul(A, B)\n", "t.pto:3:5", "matmul"},
    {"broadcast_mismatch", "A = pto.tensor([4, 8])\nB = pto.tensor([3])\nC = pto.add(A, B)\n", "t.pto:3:5",
     "broadcast"},
    {"capacity_overflow", "A = pto.tensor([256, 256], pto.float32, memory=\"shared\")\n", "t.pto:1:5",
     "cannot allocate"},
    {"unknown_space", "A = pto.tensor([4], pto.float32, memory=\"hbm\")\n", "t.pto:1:5", "unknown memory space 'hbm'"},
    {"bad_dtype_string", "A = pto.tensor([4], \"float64\")\n", "t.pto:1:21", "bad dtype 'float64'"},
    {"bad_init", "A = pto.tensor([4], init=\"randn\")\n", "t.pto:1:26", "unknown init 'randn'"},
    {"write_constant_elem", "A = pto.tensor([4], memory=\"constant\")\nA[0] = 1.0\n", "t.pto:2:2", "read-only"},
    {"write_constant_store",
     "A = pto.tensor([4], memory=\"constant\")\nB = pto.tensor([4])\npto.store(B, A)\n", "t.pto:3:1", "read-only"},
    {"use_after_free",
     "with pto.scope(\"s\"):\n    T = pto.tensor([4])\nx = T[0]\n", "t.pto:3:6", "freed"},
    {"tensor_truth", "A = pto.tensor([4])\nif A:\n    pass\n", "t.pto:2:4", "truth value of a tensor is ambiguous"},
    {"negative_shape", "A = pto.tensor([4, -1])\n", "t.pto:1:16", "negative dimension"},
    {"tile_bad_size", "A = pto.tensor([4, 4])\nwith pto.tile(M=0):\n    C = pto.matmul(A, A)\n", "t.pto:2:15",
     "must be positive"},
    {"reuse_bad_scope", "with pto.reuse(\"A\", scope=\"warp\"):\n    pass\n", "t.pto:1:27", "unknown reuse scope 'warp'"},
    {"memory_bad_space", "with pto.memory(\"l3\"):\n    pass\n", "t.pto:1:6", "unknown memory space 'l3'"},
    {"shape_not_list", "A = pto.tensor(\"big\")\n", "t.pto:1:16", "shape must be a list of integers"},
    {"attr_unknown", "A = pto.tensor([4])\nx = A.strides\n", "t.pto:2:7", "tensor has no attribute 'strides'"},
    {"slice_step_zero", "A = pto.tensor([8])\ns = 0\nv = A[1:7:s]\n", "t.pto:3:11", "slice step cannot be zero"},
    {"slice_float_bound", "A = pto.tensor([8])\nv = A[1.5:7]\n", "t.pto:2:7",
     "slice indices must be integers, not float"},
    // ---- runtime: sizes (a tensor holds at most 2^28 elements, padding included) ----
    {"tensor_too_large", "A = pto.tensor([2**31])\n", "t.pto:1:16", "shape [2147483648] is too large (limit 2^28 elements)"},
    {"blocked_pads_too_far", "A = pto.tensor([8, 8], layout=pto.blocked([2**62, 1]))\n", "t.pto:1:5",
     "in layout blocked([4611686018427387904, 1]) would hold more than 2^28 elements"},
    {"vectorized_pads_too_far", "A = pto.tensor([8], layout=pto.vectorized(2**31))\n", "t.pto:1:5",
     "in layout vectorized(2147483648) would hold more than 2^28 elements"},
    {"layout_transform_pads_too_far",
     "A = pto.tensor([8, 8])\nb = pto.layout_transform(A, from_layout=\"row_major\", to_layout=\"blocked\", "
     "block_shape=[2**62, 2**62])\n",
     "t.pto:2:5", "would hold more than 2^28 elements"},
    {"im2col_padding_too_large", "X = pto.tensor([1, 2, 6, 6])\nc = pto.im2col(X, 3, 3, padding=2**40)\n", "t.pto:2:5",
     "im2col: padding must be from 0 to 2^20"},
    {"ref_conv_padding_too_large",
     "X = pto.tensor([1, 2, 6, 6])\nW = pto.tensor([3, 2, 3, 3])\nY = pto.ref.conv2d(X, W, padding=2**40)\n", "t.pto:3:5",
     "ref.conv2d: padding must be from 0 to 2^20"},
    {"im2col_result_too_large", "X = pto.tensor([1, 2, 6, 6])\nc = pto.im2col(X, 3, 3, padding=2**19)\n", "t.pto:2:5",
     "would hold more than 2^28 elements"},
    {"broadcast_result_too_large", "A = pto.tensor([16384, 1])\nB = pto.tensor([1, 16385])\nC = A + B\n", "t.pto:3:7",
     "a tensor of shape [16384, 16385] in layout row_major would hold more than 2^28 elements"},
};

class BadProgram : public ::testing::TestWithParam<Bad> {};

TEST_P(BadProgram, ReportsPositionAndMessage) {
  const Bad& b = GetParam();
  std::string err = error_of(std::string(kPrelude) + b.program);
  ASSERT_FALSE(err.empty()) << "program ran without error:\n" << b.program;
  EXPECT_EQ(err.rfind(std::string(b.where) + ": ", 0), 0u) << err;
  EXPECT_NE(err.find(b.message), std::string::npos) << err;
  // The source line and a caret line follow the message.
  EXPECT_NE(err.find("\n"), std::string::npos) << err;
  EXPECT_EQ(err.back(), '^') << err;
}

INSTANTIATE_TEST_SUITE_P(All, BadProgram, ::testing::ValuesIn(kBad),
                         [](const ::testing::TestParamInfo<Bad>& i) { return std::string(i.param.name); });

TEST(BadProgramCount, AtLeastForty) { EXPECT_GE(sizeof(kBad) / sizeof(kBad[0]), 40u); }

TEST(BadProgramLimits, EventLimitStopsRunawayLoop) {
  std::string err = error_of("A = pto.tensor([4])\nfor i in range(100000):\n    x = A[0]\n", {}, 1000);
  EXPECT_EQ(err.rfind("t.pto:3:", 0), 0u) << err;
  EXPECT_NE(err.find("event limit 1000 exceeded"), std::string::npos) << err;
}

TEST(BadProgramLimits, IterationLimitStopsPureComputeLoop) {
  std::string err = error_of("x = 0\nfor i in range(1000000000000):\n    x += 1\n", {}, 1000);
  EXPECT_EQ(err.rfind("t.pto:2:1: ", 0), 0u) << err;
  EXPECT_NE(err.find("iteration limit exceeded"), std::string::npos) << err;
  // Refused before its first iteration: it cannot end early (it used to run
  // to the limit, 20 s at the default one).
  EXPECT_NE(err.find("this loop runs 1000000000000 times, more than the 1000000 loop iterations and calls left"),
            std::string::npos)
      << err;
}

TEST(BadProgramLimits, LoopThatCanLeaveRunsUntilItDoes) {
  // A break or a return may end a long range early: it is not refused.
  EXPECT_EQ(error_of("for i in range(10**12):\n    if i == 3:\n        break\n", {}, 1000), "");
  EXPECT_EQ(error_of("def f():\n    for i in range(10**12):\n        return i\nx = f()\n", {}, 1000), "");
  // Nested: the inner loop's trip count is checked against what is left.
  std::string err = error_of("for i in range(10):\n    for j in range(400000):\n        pass\n", {}, 1000);
  EXPECT_EQ(err.rfind("t.pto:2:5: iteration limit exceeded: this loop runs 400000 times, more than the ", 0), 0u) << err;
}

// A program's memory is bounded like its events: the statement that would
// pass --max-memory is named, before the memory is taken.
std::string error_with_memory(const std::string& text, uint64_t max_memory) {
  ProgramOptions o;
  o.max_memory = max_memory;
  std::ostringstream prints;
  o.print_stream = &prints;
  try {
    run_program_text("t.pto", text, frontend_test_config(), o, nullptr);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

struct MemoryCase {
  const char* program;
  const char* first_line;
};

TEST(BadProgramLimits, MemoryLimitNamesTheStatement) {
  const std::string over = ": out of memory: the program's lists, strings and tensors would need more than 16.0 MiB (--max-memory)";
  const MemoryCase cases[] = {
      {"l = [1]\nfor i in range(64):\n    l = l + l\n", "t.pto:3:5"},
      {"s = \"ab\"\nfor i in range(64):\n    s = s + s\n", "t.pto:3:5"},
      {"s = \"abcdefgh\" * 1000000\nt = s + s + s\n", "t.pto:2:1"},
      {"l = [0] * 2000000\n", "t.pto:1:1"},
      {"A = pto.tensor([4096, 4096])\n", "t.pto:1:1"},
      {"def f(n):\n    return [n] * 1000000\nkeep = []\nfor i in range(100):\n    keep = keep + [f(i)]\n", "t.pto:2:5"},
      {"r = range(3000000)\n", "t.pto:1:1"},
  };
  for (const MemoryCase& c : cases) {
    const std::string err = error_with_memory(c.program, 16 << 20);
    EXPECT_EQ(err.substr(0, err.find('\n')), c.first_line + over) << c.program;
  }
  // Lists, strings and dicts alone have a smaller budget, 256 MiB by
  // default: a doubling meets it in about a second.
  const std::string values =
      ": out of memory: the program's lists, strings and dicts would need more than 256.0 MiB (--max-value-memory)";
  for (const char* grow : {"l = [1]\nfor i in range(64):\n    l = l + l\n", "s = \"ab\"\nfor i in range(64):\n    s = s + s\n"}) {
    const std::string err = error_with_memory(grow, uint64_t(4) << 30);
    EXPECT_EQ(err.substr(0, err.find('\n')), std::string("t.pto:3:5") + values) << grow;
  }
  // Tensors count only against the whole budget.
  EXPECT_EQ(error_with_memory("A = pto.tensor([8192, 8192])\n", uint64_t(4) << 30), "");
  // Within the limit the same kind of program runs, and what a statement
  // frees is given back.
  EXPECT_EQ(error_with_memory("for i in range(100):\n    l = [0] * 100000\n", 16 << 20), "");
}

TEST(BadProgramLimits, UnknownDefine) {
  EXPECT_EQ(error_of("param M = 4\n", {{"N", "3"}}),
            "t.pto:1:1: unknown parameter 'N' given with -D (the program declares: M)\nparam M = 4\n^");
}

TEST(BadProgramLimits, UnknownDefinePointsAtFirstParam) {
  // The first `param` in the text, not the first name in alphabetical order.
  EXPECT_EQ(error_of("x = 1\n\nparam N = 4\nparam M = 2\n", {{"Q", "3"}}),
            "t.pto:3:1: unknown parameter 'Q' given with -D (the program declares: M, N)\nparam N = 4\n^");
}

TEST(BadProgramLimits, UnknownDefineWithoutParams) {
  EXPECT_EQ(error_of("x = 1\n", {{"Q", "3"}}),
            "t.pto:1:1: unknown parameter 'Q' given with -D (the program declares: no parameters)\nx = 1\n^");
}

TEST(BadProgramLimits, DeepNestingIsAnErrorNotACrash) {
  std::string deep = "x = " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n";
  std::string err = error_of(deep);
  EXPECT_NE(err.find("nested too deeply"), std::string::npos) << err.substr(0, 200);
}

// Chains grow an expression's tree without nesting brackets; everything that
// walks the tree recurses over its height.
TEST(BadProgramLimits, LongChainsAreAnErrorNotACrash) {
  auto first_line = [](const std::string& e) { return e.substr(0, e.find('\n')); };
  std::string sum = "x = 1";
  for (int i = 0; i < 50000; ++i) sum += "+1";
  EXPECT_EQ(first_line(error_of(sum + "\n")), "t.pto:1:2004: expression too long or nested too deeply (limit 1000 levels)");
  std::string calls = "x = max";
  for (int i = 0; i < 20000; ++i) calls += "(1)";
  EXPECT_EQ(first_line(error_of(calls + "\n")), "t.pto:1:5: expression too long or nested too deeply (limit 1000 levels)");
  std::string subs = "x = [1]";
  for (int i = 0; i < 20000; ++i) subs += "[0]";
  EXPECT_EQ(first_line(error_of(subs + "\n")), "t.pto:1:3002: expression too long or nested too deeply (limit 1000 levels)");
  std::string attrs = "x = pto";
  for (int i = 0; i < 20000; ++i) attrs += ".a";
  EXPECT_NE(error_of(attrs + "\n").find("limit 1000 levels"), std::string::npos);
  // 999 links stay within the limit and run.
  std::string ok = "x = 0";
  for (int i = 0; i < 998; ++i) ok += "+1";
  EXPECT_EQ(error_of(ok + "\n"), "");
}

TEST(BadProgramLimits, DeepBlocksAreAnErrorNotACrash) {
  std::string deep;
  for (int i = 0; i < 3000; ++i) deep += std::string(size_t(i), ' ') + "if True:\n";
  deep += std::string(3000, ' ') + "x = 1\n";
  const std::string err = error_of(deep);
  EXPECT_EQ(err.substr(0, err.find('\n')), "t.pto:101:109: too many levels of nested blocks (limit 100)");
}

TEST(BadProgramLimits, CaretUnderColumn) {
  std::string err = error_of("x = 1\ny = x + zz\n");
  EXPECT_EQ(err, "t.pto:2:9: name 'zz' is not defined\ny = x + zz\n        ^");
}

}  // namespace
}  // namespace ptosim::test
