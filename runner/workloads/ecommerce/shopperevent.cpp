#include "shopperevent.h"

#include "jsonsupport.h"

#include <string>

namespace {

const char *const typeNames[shopperEventTypeCount] = {
    "page_view", "product_view", "list_view", "add_to_cart", "remove_from_cart", "checkout_step", "transaction",
};

} // namespace

const char *shopperEventTypeName(ShopperEventType type)
{
    return typeNames[static_cast<int>(type)];
}

bool shopperEventTypeFromName(std::string_view name, ShopperEventType &type)
{
    for (int i = 0; i < shopperEventTypeCount; ++i) {
        if (name == typeNames[i]) {
            type = static_cast<ShopperEventType>(i);
            return true;
        }
    }
    return false;
}

void appendEventJsonLine(const ShopperEvent &event, std::string &out)
{
    // Members in a fixed order, so equal events give equal bytes.
    Json json = {{"event_id", event.eventId},
                 {"timestamp", event.timestampMs},
                 {"shopper_id", event.shopperId},
                 {"session_id", event.sessionId},
                 {"type", shopperEventTypeName(event.type)}};
    if (event.hasProduct) {
        const ShopperEvent::Product &p = event.product;
        json["product"] = {{"id", p.id}, {"name", p.name}, {"category", p.category},
                           {"brand", p.brand}, {"price", p.priceCents}, {"currency", p.currency}};
    }
    if (event.hasCartTotal)
        json["cart_total"] = event.cartTotalCents;
    if (event.hasCheckoutStep)
        json["checkout_step"] = event.checkoutStep;
    if (event.hasTransaction) {
        const ShopperEvent::Transaction &t = event.transaction;
        json["transaction"] = {{"id", t.id}, {"revenue", t.revenueCents}, {"item_count", t.itemCount}};
    }
    if (event.hasPage) {
        const ShopperEvent::Page &p = event.page;
        Json page = {{"url", p.url}};
        for (const auto &[name, value] : {std::pair{"referrer", &p.referrer}, {"utm_source", &p.utmSource},
                                          {"utm_medium", &p.utmMedium}, {"utm_campaign", &p.utmCampaign}}) {
            if (!value->empty())
                page[name] = *value;
        }
        json["page"] = page;
    }
    out += json.dump();
    out += '\n';
}
