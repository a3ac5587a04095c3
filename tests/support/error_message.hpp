#pragma once
// What a bad input is refused with: the message of the clviz::Error `f` throws. Nothing thrown
// fails the test (and gives ""), so a refusal that went missing cannot pass unseen.
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"

namespace clviz::test {

template <class F>
std::string errorOf(F f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    ADD_FAILURE() << "no clviz::Error thrown";
    return "";
}

#define EXPECT_CONTAINS(text, part) \
    EXPECT_NE(std::string(text).find(part), std::string::npos) << "message: " << (text)

}  // namespace clviz::test
