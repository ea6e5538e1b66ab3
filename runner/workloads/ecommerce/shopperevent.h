#pragma once
// One e-commerce event of a recorded stream, and its JSON Lines form (docs/WORKLOADS.md).
// Money is integer cents; time is epoch milliseconds (UTC).

#include <QString>
#include <string>
#include <string_view>

enum class ShopperEventType {
    PageView,
    ProductView,
    ListView,
    AddToCart,
    RemoveFromCart,
    CheckoutStep,
    Transaction,
};
constexpr int shopperEventTypeCount = 7;

const char *shopperEventTypeName(ShopperEventType type);
// False when `name` is not one of the seven type names.
bool shopperEventTypeFromName(std::string_view name, ShopperEventType &type);

struct ShopperEvent {
    struct Product {
        std::string id;
        std::string name;
        std::string category;   // "Woman/Shoes/Sneakers"
        std::string brand;
        long long priceCents = 0;
        std::string currency;
    };
    struct Transaction {
        std::string id;
        long long revenueCents = 0;
        long long itemCount = 0;
    };
    struct Page {
        std::string url;
        std::string referrer;
        std::string utmSource;
        std::string utmMedium;
        std::string utmCampaign;
    };

    std::string eventId;
    long long timestampMs = 0;
    std::string shopperId;
    std::string sessionId;
    ShopperEventType type = ShopperEventType::PageView;

    bool hasProduct = false;
    Product product;
    bool hasCartTotal = false;
    long long cartTotalCents = 0;
    bool hasCheckoutStep = false;
    long long checkoutStep = 0;
    bool hasTransaction = false;
    Transaction transaction;
    bool hasPage = false;
    Page page;
};

// Appends the event as one JSON line (with the trailing newline). Field order is fixed,
// so equal events give equal bytes.
void appendEventJsonLine(const ShopperEvent &event, std::string &out);

// Parses one JSON line. On failure returns false and sets `error` to the reason without
// location (e.g. "missing field shopper_id"); the caller prefixes "file:line: ".
bool parseEventJsonLine(std::string_view line, ShopperEvent &event, std::string &error);
