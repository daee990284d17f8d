// Generated from schemas/components/YahooFinance.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/YahooFinance.schema.json","title":"YahooFinance params","description":"Stock data from Yahoo Finance (RAGFlow YahooFinanceParam). Usable as an Agent tool and as a canvas node. Outputs: report.","type":"object","properties":{"stock_code":{"type":"string","description":"The stock code or company name. As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"info":{"type":"boolean","description":"Include the company information (default true)."},"history":{"type":"boolean","description":"Include the price history (default false)."},"count":{"type":"boolean","description":"Include the share count (default false)."},"financials":{"type":"boolean","description":"Include the financial calendar (default false)."},"income_stmt":{"type":"boolean","description":"Include the income statement (default false)."},"balance_sheet":{"type":"boolean","description":"Include the balance sheets (default false)."},"cash_flow_statement":{"type":"boolean","description":"Include the cash flow statements (default false)."},"news":{"type":"boolean","description":"Include the news (default true)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/YahooFinance.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.stock_code !== undefined){
let data0 = data.stock_code;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/stock_code",schemaPath:"#/properties/stock_code/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.stock_code.type,parentSchema:schema31.properties.stock_code,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.info !== undefined){
let data1 = data.info;
if(typeof data1 !== "boolean"){
const err1 = {instancePath:instancePath+"/info",schemaPath:"#/properties/info/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.info.type,parentSchema:schema31.properties.info,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.history !== undefined){
let data2 = data.history;
if(typeof data2 !== "boolean"){
const err2 = {instancePath:instancePath+"/history",schemaPath:"#/properties/history/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.history.type,parentSchema:schema31.properties.history,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.count !== undefined){
let data3 = data.count;
if(typeof data3 !== "boolean"){
const err3 = {instancePath:instancePath+"/count",schemaPath:"#/properties/count/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.count.type,parentSchema:schema31.properties.count,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.financials !== undefined){
let data4 = data.financials;
if(typeof data4 !== "boolean"){
const err4 = {instancePath:instancePath+"/financials",schemaPath:"#/properties/financials/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.financials.type,parentSchema:schema31.properties.financials,data:data4};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.income_stmt !== undefined){
let data5 = data.income_stmt;
if(typeof data5 !== "boolean"){
const err5 = {instancePath:instancePath+"/income_stmt",schemaPath:"#/properties/income_stmt/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.income_stmt.type,parentSchema:schema31.properties.income_stmt,data:data5};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.balance_sheet !== undefined){
let data6 = data.balance_sheet;
if(typeof data6 !== "boolean"){
const err6 = {instancePath:instancePath+"/balance_sheet",schemaPath:"#/properties/balance_sheet/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.balance_sheet.type,parentSchema:schema31.properties.balance_sheet,data:data6};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.cash_flow_statement !== undefined){
let data7 = data.cash_flow_statement;
if(typeof data7 !== "boolean"){
const err7 = {instancePath:instancePath+"/cash_flow_statement",schemaPath:"#/properties/cash_flow_statement/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.cash_flow_statement.type,parentSchema:schema31.properties.cash_flow_statement,data:data7};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.news !== undefined){
let data8 = data.news;
if(typeof data8 !== "boolean"){
const err8 = {instancePath:instancePath+"/news",schemaPath:"#/properties/news/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.news.type,parentSchema:schema31.properties.news,data:data8};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
else {
const err9 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"stock_code":true,"info":true,"history":true,"count":true,"financials":true,"income_stmt":true,"balance_sheet":true,"cash_flow_statement":true,"news":true},"dynamicProps":false,"dynamicItems":false};

