#pragma once
#include <cstdint>
#include <string>

#include "sim/frontend/errors.h"

namespace ptosim::frontend {

enum class Tok : uint8_t {
  Name, Int, Float, String, Newline, Indent, Dedent, End,
  // keywords
  KwDef, KwReturn, KwFor, KwIn, KwIf, KwElif, KwElse, KwBreak, KwContinue, KwPass,
  KwAssert, KwWith, KwAnd, KwOr, KwNot, KwTrue, KwFalse, KwNone, KwIs, KwImport,
  KwWhile, KwLambda, KwClass,  // reserved: rejected with a clear message
  // operators and punctuation
  Plus, Minus, Star, Slash, SlashSlash, Percent, StarStar, At,
  Assign, PlusAssign, MinusAssign, StarAssign, SlashAssign, SlashSlashAssign, PercentAssign, StarStarAssign,
  Eq, Ne, Lt, Le, Gt, Ge,
  LParen, RParen, LBracket, RBracket, LBrace, RBrace, Comma, Colon, Dot,
};

const char* tok_name(Tok t);

struct Token {
  Tok kind = Tok::End;
  Pos pos;
  std::string text;  // names, string literal values, number spelling
  int64_t ival = 0;
  double fval = 0;
};

}  // namespace ptosim::frontend
