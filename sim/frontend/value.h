#pragma once
// Runtime values of the interpreter: a 16-byte tagged union. Scalars live
// inline (no allocation per arithmetic op); strings, lists, tensors, layouts
// and functions are refcounted heap objects, non-atomically because the
// interpreter is single-threaded. Dropping the last reference to a tensor
// releases its storage, which is how "freed when nothing refers to it" works.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/exec/tensor.h"

namespace ptosim::frontend {

enum class VT : uint8_t {
  Undef,  // an unassigned slot / an absent optional argument
  None, Bool, Int, Float, DType, Module, Builtin,
  // heap-allocated from here on (is_heap relies on this order)
  Str, List, Tuple, Tensor, Layout, Func, Dict,
  Object,  // an ObjectBase: the article's tools and their records (tools.h)
};

struct Obj {
  uint32_t refs = 1;
  virtual ~Obj() = default;
};

struct BuiltinDef;
struct FuncObj;

class Value {
 public:
  VT tag = VT::Undef;
  // Dataflow (core model cpu): the event that produced this scalar (a
  // tensor element's read, an arithmetic op), 0 = none; kept in padding.
  uint32_t tok = 0;
  union {
    int64_t i;
    double f;
    Obj* o;
    const BuiltinDef* b;
  };

  Value() : i(0) {}
  ~Value() { drop(); }
  Value(const Value& v) : tag(v.tag), tok(v.tok), i(v.i) {
    if (is_heap()) ++o->refs;
  }
  Value(Value&& v) noexcept : tag(v.tag), tok(v.tok), i(v.i) { v.tag = VT::Undef; }
  Value& operator=(const Value& v) {
    if (v.is_heap()) ++v.o->refs;
    drop();
    tag = v.tag;
    tok = v.tok;
    i = v.i;
    return *this;
  }
  Value& operator=(Value&& v) noexcept {
    if (this != &v) {
      drop();
      tag = v.tag;
      tok = v.tok;
      i = v.i;
      v.tag = VT::Undef;
    }
    return *this;
  }

  static Value none() { Value v; v.tag = VT::None; return v; }
  static Value boolean(bool b) { Value v; v.tag = VT::Bool; v.i = b; return v; }
  static Value integer(int64_t x) { Value v; v.tag = VT::Int; v.i = x; return v; }
  static Value number(double x) { Value v; v.tag = VT::Float; v.f = x; return v; }
  static Value dtype(exec::DType d) { Value v; v.tag = VT::DType; v.i = int64_t(d); return v; }
  static Value module(int id) { Value v; v.tag = VT::Module; v.i = id; return v; }
  static Value builtin(const BuiltinDef* d) { Value v; v.tag = VT::Builtin; v.b = d; return v; }
  // Takes ownership of a fresh object (refs == 1).
  static Value object(VT t, Obj* obj) { Value v; v.tag = t; v.o = obj; return v; }
  static Value str(std::string s);
  static Value list(std::vector<Value> items);
  static Value tuple(std::vector<Value> items);
  static Value tensor(exec::Tensor t);
  static Value layout(exec::Layout l);

  bool is_heap() const { return tag >= VT::Str; }
  bool defined() const { return tag != VT::Undef; }
  bool is_number() const { return tag == VT::Int || tag == VT::Float || tag == VT::Bool; }
  bool is_int() const { return tag == VT::Int || tag == VT::Bool; }
  double as_double() const { return tag == VT::Float ? f : double(i); }

  const std::string& as_str() const;
  std::vector<Value>& items() const;  // List or Tuple
  exec::Tensor& as_tensor() const;
  const exec::Layout& as_layout() const;
  FuncObj* as_func() const;

  // Assign an int without touching the refcount machinery when possible.
  void set_int(int64_t x) {
    if (is_heap()) drop();
    tag = VT::Int;
    tok = 0;
    i = x;
  }
  // A number produced by event `t`.
  static Value number_from(double x, uint32_t t) { Value v = number(x); v.tok = t; return v; }

 private:
  void drop() {
    if (is_heap() && --o->refs == 0) delete o;
    tag = VT::Undef;
  }
};

// Strings and lists count against the program's memory budget
// (sim/common/memory_budget.h) from creation to destruction.
struct StrObj : Obj {
  std::string s;
  uint64_t charged = 0;
  ~StrObj() override;
};
struct ListObj : Obj {
  std::vector<Value> items;
  uint64_t charged = 0;
  ~ListObj() override;
};
// Python's dict: insertion-ordered entries, and an index from each key's
// canonical text (dict_key) to its entry so that a lookup does not scan.
// Entries are never removed (the language has no `del`). Counts against the
// memory budget like a list.
struct DictObj : Obj {
  std::vector<std::pair<Value, Value>> entries;
  std::unordered_map<std::string, size_t> index;
  uint64_t charged = 0;
  ~DictObj() override;
  const Value* find(const std::string& key) const {
    auto it = index.find(key);
    return it == index.end() ? nullptr : &entries[it->second].second;
  }
  void set(const std::string& key, Value k, Value v);
};
Value new_dict();
// Appends to a list, charging the budget for the room it grows by.
void list_append(const Value& list, Value v);
// Throws memory_budget::Exceeded if a string or list of `bytes` would not fit.
void check_room(uint64_t bytes);
struct TensorObj : Obj {
  exec::Tensor t;
  // Unique for the life of the process (never reused, unlike the address),
  // so subscript nodes can cache this view's address map under it.
  uint64_t id = 0;
};
struct LayoutObj : Obj {
  exec::Layout l;
};

inline const std::string& Value::as_str() const { return static_cast<StrObj*>(o)->s; }
inline std::vector<Value>& Value::items() const { return static_cast<ListObj*>(o)->items; }
inline exec::Tensor& Value::as_tensor() const { return static_cast<TensorObj*>(o)->t; }
inline const exec::Layout& Value::as_layout() const { return static_cast<LayoutObj*>(o)->l; }
inline DictObj& as_dict(const Value& v) { return *static_cast<DictObj*>(v.o); }

const char* type_name(const Value& v);
// Python's str() / repr() of a value.
std::string to_str(const Value& v);
std::string to_repr(const Value& v);
std::string format_float(double d);  // shortest round-trip form, "1.0" style

}  // namespace ptosim::frontend
