package spec

import "testing"

func TestGoName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"user_id", "UserID"},
		{"userId", "UserID"},
		{"userID", "UserID"},
		{"UserId", "UserID"},
		{"list-customers", "ListCustomers"},
		{"list_customers", "ListCustomers"},
		{"listCustomers", "ListCustomers"},
		{"HTTPServer", "HTTPServer"},
		{"http_server", "HTTPServer"},
		{"api_url", "APIURL"},
		{"ids", "IDs"},
		{"user_ids", "UserIDs"},
		{"userIDs", "UserIDs"},
		{"APIs", "APIs"},
		{"apis", "APIs"},
		{"urls", "URLs"},
		{"os", "OS"},
		{"type", "Type"},
		{"func", "Func"},
		{"email", "Email"},
		{"amount_cents", "AmountCents"},
		{"collected_30d_cents", "Collected30dCents"},
		{"oauth2Token", "Oauth2Token"},
		{"v2_api", "V2API"},
		{"2fa_code", "X2faCode"},
		{"_private", "Private"},
		{"a", "A"},
		{"ALLCAPS", "Allcaps"},
		{"mrr", "MRR"},
		{"status", "Status"},
		{"bus", "Bus"},
		{"_", ""},
		{"__", ""},
		{"-", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := GoName(tt.in); got != tt.want {
			t.Errorf("GoName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestToolGoName(t *testing.T) {
	tests := []struct{ provider, tool, want string }{
		{"stripe", "stripe_list_customers", "ListCustomers"},
		{"stripe", "stripe-list-customers", "ListCustomers"},
		{"stripe", "list_customers", "ListCustomers"},
		{"stripe", "stripeListCustomers", "StripeListCustomers"}, // no separator: not a prefix
		{"stripe", "stripe", "Stripe"},
		{"stripe", "stripe_", "Stripe"},
		{"hitl", "wait_for_approval", "WaitForApproval"},
		{"", "stripe_revenue_metrics", "StripeRevenueMetrics"},
		{"shop", "shop_get_ids", "GetIDs"},
		{"demo", "demo_1st", "X1st"},
	}
	for _, tt := range tests {
		if got := ToolGoName(tt.provider, tt.tool); got != tt.want {
			t.Errorf("ToolGoName(%q, %q) = %q, want %q", tt.provider, tt.tool, got, tt.want)
		}
	}
}

func TestIsKeyword(t *testing.T) {
	for _, k := range []string{"type", "func", "go", "package", "range"} {
		if !IsKeyword(k) {
			t.Errorf("IsKeyword(%q) = false", k)
		}
	}
	for _, k := range []string{"Type", "stripe", "tools", ""} {
		if IsKeyword(k) {
			t.Errorf("IsKeyword(%q) = true", k)
		}
	}
}
