#include "sim/frontend/lexer.h"

#include <cerrno>
#include <cstdlib>
#include <unordered_map>

namespace ptosim::frontend {

const char* tok_name(Tok t) {
  switch (t) {
    case Tok::Name: return "name";
    case Tok::Int: return "integer";
    case Tok::Float: return "float";
    case Tok::String: return "string";
    case Tok::Newline: return "end of line";
    case Tok::Indent: return "indent";
    case Tok::Dedent: return "dedent";
    case Tok::End: return "end of file";
    case Tok::KwDef: return "'def'";
    case Tok::KwReturn: return "'return'";
    case Tok::KwFor: return "'for'";
    case Tok::KwIn: return "'in'";
    case Tok::KwIf: return "'if'";
    case Tok::KwElif: return "'elif'";
    case Tok::KwElse: return "'else'";
    case Tok::KwBreak: return "'break'";
    case Tok::KwContinue: return "'continue'";
    case Tok::KwPass: return "'pass'";
    case Tok::KwAssert: return "'assert'";
    case Tok::KwWith: return "'with'";
    case Tok::KwAnd: return "'and'";
    case Tok::KwOr: return "'or'";
    case Tok::KwNot: return "'not'";
    case Tok::KwTrue: return "'True'";
    case Tok::KwFalse: return "'False'";
    case Tok::KwNone: return "'None'";
    case Tok::KwIs: return "'is'";
    case Tok::KwImport: return "'import'";
    case Tok::KwWhile: return "'while'";
    case Tok::KwLambda: return "'lambda'";
    case Tok::KwClass: return "'class'";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
    case Tok::Star: return "'*'";
    case Tok::Slash: return "'/'";
    case Tok::SlashSlash: return "'//'";
    case Tok::Percent: return "'%'";
    case Tok::StarStar: return "'**'";
    case Tok::At: return "'@'";
    case Tok::Assign: return "'='";
    case Tok::PlusAssign: return "'+='";
    case Tok::MinusAssign: return "'-='";
    case Tok::StarAssign: return "'*='";
    case Tok::SlashAssign: return "'/='";
    case Tok::SlashSlashAssign: return "'//='";
    case Tok::PercentAssign: return "'%='";
    case Tok::StarStarAssign: return "'**='";
    case Tok::Eq: return "'=='";
    case Tok::Ne: return "'!='";
    case Tok::Lt: return "'<'";
    case Tok::Le: return "'<='";
    case Tok::Gt: return "'>'";
    case Tok::Ge: return "'>='";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::LBracket: return "'['";
    case Tok::RBracket: return "']'";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::Comma: return "','";
    case Tok::Colon: return "':'";
    case Tok::Dot: return "'.'";
  }
  return "?";
}

namespace {

const std::unordered_map<std::string, Tok>& keywords() {
  static const std::unordered_map<std::string, Tok> k = {
      {"def", Tok::KwDef},       {"return", Tok::KwReturn}, {"for", Tok::KwFor},
      {"in", Tok::KwIn},         {"if", Tok::KwIf},         {"elif", Tok::KwElif},
      {"else", Tok::KwElse},     {"break", Tok::KwBreak},   {"continue", Tok::KwContinue},
      {"pass", Tok::KwPass},     {"assert", Tok::KwAssert}, {"with", Tok::KwWith},
      {"and", Tok::KwAnd},       {"or", Tok::KwOr},         {"not", Tok::KwNot},
      {"True", Tok::KwTrue},     {"False", Tok::KwFalse},   {"None", Tok::KwNone},
      {"is", Tok::KwIs},         {"import", Tok::KwImport}, {"while", Tok::KwWhile},
      {"lambda", Tok::KwLambda}, {"class", Tok::KwClass},
  };
  return k;
}

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Lexer {
 public:
  explicit Lexer(const std::string& s) : s_(s) {}

  std::vector<Token> run() {
    indents_.push_back(0);
    bool at_line_start = true;
    while (true) {
      if (at_line_start && depth_ == 0) {
        if (!line_start()) break;  // end of input
        at_line_start = false;
        continue;
      }
      if (i_ >= s_.size()) break;
      char c = s_[i_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        adv();
        continue;
      }
      if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') adv();
        continue;
      }
      if (c == '\\' && i_ + 1 < s_.size() && (s_[i_ + 1] == '\n' || s_[i_ + 1] == '\r')) {
        adv();
        if (s_[i_] == '\r') adv();
        if (i_ < s_.size() && s_[i_] == '\n') newline();
        continue;
      }
      if (c == '\n') {
        if (depth_ == 0) {
          push(Tok::Newline, here());
          at_line_start = true;
        }
        newline();
        continue;
      }
      lex_token();
    }
    if (depth_ > 0) fail(open_pos_.back(), std::string("'") + open_char_.back() + "' was never closed");
    if (!toks_.empty() && toks_.back().kind != Tok::Newline && toks_.back().kind != Tok::Dedent)
      push(Tok::Newline, here());
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(Tok::Dedent, here());
    }
    push(Tok::End, here());
    return std::move(toks_);
  }

 private:
  Pos here() const { return Pos{line_, int(i_ - line_begin_) + 1}; }
  void adv() { ++i_; }
  void newline() {
    ++i_;
    ++line_;
    line_begin_ = i_;
  }
  void push(Tok k, Pos p, std::string text = {}) {
    Token t;
    t.kind = k;
    t.pos = p;
    t.text = std::move(text);
    toks_.push_back(std::move(t));
  }

  // Measures indentation of the next non-blank line and emits INDENT/DEDENT.
  // Returns false at end of input.
  bool line_start() {
    while (true) {
      size_t width = 0;
      while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\f')) {
        if (s_[i_] == '\t') {
          // Only an error when the line has code: a tab in a blank line is harmless.
          size_t j = i_;
          while (j < s_.size() && (s_[j] == ' ' || s_[j] == '\t')) ++j;
          if (j < s_.size() && s_[j] != '\n' && s_[j] != '#' && s_[j] != '\r')
            fail(here(), "tab in indentation (indent with spaces only)");
        }
        ++width;
        adv();
      }
      if (i_ >= s_.size()) return false;
      char c = s_[i_];
      if (c == '\r') {
        adv();
        continue;
      }
      if (c == '\n') {
        newline();
        continue;
      }
      if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') adv();
        continue;
      }
      Pos p = here();
      if (width > indents_.back()) {
        indents_.push_back(width);
        push(Tok::Indent, p);
      } else {
        while (width < indents_.back()) {
          indents_.pop_back();
          push(Tok::Dedent, p);
        }
        if (width != indents_.back()) fail(p, "unindent does not match any outer indentation level");
      }
      return true;
    }
  }

  void lex_token() {
    Pos p = here();
    char c = s_[i_];
    if (is_ident_start(c)) {
      size_t b = i_;
      while (i_ < s_.size() && (is_ident_start(s_[i_]) || is_digit(s_[i_]))) adv();
      std::string word = s_.substr(b, i_ - b);
      auto it = keywords().find(word);
      if (it != keywords().end()) {
        push(it->second, p, word);
      } else {
        push(Tok::Name, p, word);
      }
      return;
    }
    if (is_digit(c) || (c == '.' && i_ + 1 < s_.size() && is_digit(s_[i_ + 1]))) {
      lex_number(p);
      return;
    }
    if (c == '"' || c == '\'') {
      lex_string(p);
      return;
    }
    auto two = [&](char a, char b) { return s_[i_] == a && i_ + 1 < s_.size() && s_[i_ + 1] == b; };
    auto three = [&](char a, char b, char d) { return two(a, b) && i_ + 2 < s_.size() && s_[i_ + 2] == d; };
    struct Op { const char* s; Tok t; };
    if (three('/', '/', '=')) return op(p, 3, Tok::SlashSlashAssign);
    if (three('*', '*', '=')) return op(p, 3, Tok::StarStarAssign);
    static const Op ops2[] = {{"**", Tok::StarStar}, {"//", Tok::SlashSlash}, {"+=", Tok::PlusAssign},
                              {"-=", Tok::MinusAssign}, {"*=", Tok::StarAssign}, {"/=", Tok::SlashAssign},
                              {"%=", Tok::PercentAssign}, {"==", Tok::Eq}, {"!=", Tok::Ne},
                              {"<=", Tok::Le}, {">=", Tok::Ge}};
    for (const Op& o : ops2)
      if (two(o.s[0], o.s[1])) return op(p, 2, o.t);
    switch (c) {
      case '+': return op(p, 1, Tok::Plus);
      case '-': return op(p, 1, Tok::Minus);
      case '*': return op(p, 1, Tok::Star);
      case '/': return op(p, 1, Tok::Slash);
      case '%': return op(p, 1, Tok::Percent);
      case '@': return op(p, 1, Tok::At);
      case '=': return op(p, 1, Tok::Assign);
      case '<': return op(p, 1, Tok::Lt);
      case '>': return op(p, 1, Tok::Gt);
      case ',': return op(p, 1, Tok::Comma);
      case ':': return op(p, 1, Tok::Colon);
      case '.': return op(p, 1, Tok::Dot);
      case '(': case '[': case '{': {
        open_pos_.push_back(p);
        open_char_.push_back(c);
        ++depth_;
        return op(p, 1, c == '(' ? Tok::LParen : c == '[' ? Tok::LBracket : Tok::LBrace);
      }
      case ')': case ']': case '}': {
        char want = c == ')' ? '(' : c == ']' ? '[' : '{';
        if (depth_ == 0) fail(p, std::string("unmatched '") + c + "'");
        if (open_char_.back() != want)
          fail(p, std::string("closing '") + c + "' does not match opening '" + open_char_.back() + "' at line " +
                      std::to_string(open_pos_.back().line));
        open_pos_.pop_back();
        open_char_.pop_back();
        --depth_;
        return op(p, 1, c == ')' ? Tok::RParen : c == ']' ? Tok::RBracket : Tok::RBrace);
      }
      default:
        break;
    }
    std::string ch(1, c);
    if (static_cast<unsigned char>(c) >= 0x80) ch = "non-ASCII character";
    else ch = "character '" + ch + "'";
    fail(p, "invalid " + ch);
  }

  void op(Pos p, int n, Tok t) {
    push(t, p, s_.substr(i_, n));
    i_ += n;
  }

  void lex_number(Pos p) {
    size_t b = i_;
    if (s_[i_] == '0' && i_ + 1 < s_.size() && (s_[i_ + 1] == 'x' || s_[i_ + 1] == 'X')) {
      i_ += 2;
      while (i_ < s_.size() && (isxdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) adv();
      std::string digits;
      for (size_t k = b + 2; k < i_; ++k)
        if (s_[k] != '_') digits += s_[k];
      if (digits.empty()) fail(p, "invalid hexadecimal literal");
      errno = 0;
      unsigned long long v = strtoull(digits.c_str(), nullptr, 16);
      if (errno == ERANGE || v > uint64_t(INT64_MAX)) fail(p, "integer literal too large");
      push(Tok::Int, p, s_.substr(b, i_ - b));
      toks_.back().ival = int64_t(v);
      return;
    }
    bool is_float = false;
    while (i_ < s_.size() && (is_digit(s_[i_]) || s_[i_] == '_')) adv();
    if (i_ < s_.size() && s_[i_] == '.') {
      is_float = true;
      adv();
      while (i_ < s_.size() && (is_digit(s_[i_]) || s_[i_] == '_')) adv();
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      size_t j = i_ + 1;
      if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
      if (j < s_.size() && is_digit(s_[j])) {
        is_float = true;
        i_ = j;
        while (i_ < s_.size() && is_digit(s_[i_])) adv();
      } else {
        fail(here(), "invalid number literal: exponent has no digits");
      }
    }
    if (i_ < s_.size() && (is_ident_start(s_[i_]) || is_digit(s_[i_])))
      fail(here(), "invalid number literal");
    std::string spelled = s_.substr(b, i_ - b);
    std::string digits;
    for (char ch : spelled)
      if (ch != '_') digits += ch;
    if (is_float) {
      push(Tok::Float, p, spelled);
      toks_.back().fval = strtod(digits.c_str(), nullptr);
    } else {
      if (digits.size() > 1 && digits[0] == '0' && digits.find_first_not_of('0') != std::string::npos)
        fail(p, "leading zeros in integer literals are not allowed");
      errno = 0;
      unsigned long long v = strtoull(digits.c_str(), nullptr, 10);
      if (errno == ERANGE || v > uint64_t(INT64_MAX)) fail(p, "integer literal too large (limit is 2**63-1)");
      push(Tok::Int, p, spelled);
      toks_.back().ival = int64_t(v);
    }
  }

  void lex_string(Pos p) {
    char q = s_[i_];
    bool triple = i_ + 2 < s_.size() && s_[i_ + 1] == q && s_[i_ + 2] == q;
    i_ += triple ? 3 : 1;
    std::string out;
    while (true) {
      if (i_ >= s_.size()) fail(p, triple ? "unterminated triple-quoted string" : "unterminated string literal");
      char c = s_[i_];
      if (c == '\n') {
        if (!triple) fail(p, "unterminated string literal");
        out += c;
        newline();
        continue;
      }
      if (c == q) {
        if (!triple) {
          adv();
          break;
        }
        if (i_ + 2 < s_.size() && s_[i_ + 1] == q && s_[i_ + 2] == q) {
          i_ += 3;
          break;
        }
      }
      if (c == '\\' && i_ + 1 < s_.size()) {
        char e = s_[i_ + 1];
        i_ += 2;
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case '0': out += '\0'; break;
          case '\\': out += '\\'; break;
          case '\'': out += '\''; break;
          case '"': out += '"'; break;
          case '\n': ++line_; line_begin_ = i_; break;
          default: out += '\\'; out += e; break;
        }
        continue;
      }
      out += c;
      adv();
    }
    push(Tok::String, p, out);
  }

  const std::string& s_;
  size_t i_ = 0;
  int line_ = 1;
  size_t line_begin_ = 0;
  int depth_ = 0;
  std::vector<Pos> open_pos_;
  std::vector<char> open_char_;
  std::vector<size_t> indents_;
  std::vector<Token> toks_;
};

}  // namespace

std::vector<Token> tokenize(const std::string& text) { return Lexer(text).run(); }

}  // namespace ptosim::frontend
