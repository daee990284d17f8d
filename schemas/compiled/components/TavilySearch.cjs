// Generated from schemas/components/TavilySearch.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/TavilySearch.schema.json","title":"TavilySearch params","description":"Web search with Tavily (RAGFlow TavilySearchParam). Usable as an Agent tool and as a canvas node. Outputs: formalized_content, json.","type":"object","properties":{"query":{"type":"string","description":"Search keywords. As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"topic":{"type":"string","description":"general (default) or news.","enum":["general","news"]},"include_domains":{"description":"Only return results from these domains.","anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"}]},"exclude_domains":{"description":"Never return results from these domains.","anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"}]},"api_key":{"type":"string","description":"Tavily API key. Empty: warning; it must be set before the tool can run."},"search_depth":{"type":"string","description":"basic (default) or advanced.","enum":["basic","advanced"]},"max_results":{"type":["integer","string"],"description":"Number of results (> 0, default 6)."},"days":{"type":["integer","string"],"description":"For news: how many days back (> 0, default 14)."},"include_answer":{"type":"boolean","description":"Ask Tavily for an answer (default false)."},"include_raw_content":{"type":"boolean","description":"Return the pages' raw content (default false)."},"include_images":{"type":"boolean","description":"Return images (default false)."},"include_image_descriptions":{"type":"boolean","description":"Return image descriptions (default false)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/TavilySearch.schema.json" */;
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
if(data.query !== undefined){
let data0 = data.query;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/query",schemaPath:"#/properties/query/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.query.type,parentSchema:schema31.properties.query,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.topic !== undefined){
let data1 = data.topic;
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/topic",schemaPath:"#/properties/topic/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.topic.type,parentSchema:schema31.properties.topic,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(!((data1 === "general") || (data1 === "news"))){
const err2 = {instancePath:instancePath+"/topic",schemaPath:"#/properties/topic/enum",keyword:"enum",params:{allowedValues: schema31.properties.topic.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.topic.enum,parentSchema:schema31.properties.topic,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.include_domains !== undefined){
let data2 = data.include_domains;
const _errs6 = errors;
let valid1 = false;
const _errs7 = errors;
if(Array.isArray(data2)){
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
let data3 = data2[i0];
if(typeof data3 !== "string"){
const err3 = {instancePath:instancePath+"/include_domains/" + i0,schemaPath:"#/properties/include_domains/anyOf/0/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.include_domains.anyOf[0].items.type,parentSchema:schema31.properties.include_domains.anyOf[0].items,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath:instancePath+"/include_domains",schemaPath:"#/properties/include_domains/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.include_domains.anyOf[0].type,parentSchema:schema31.properties.include_domains.anyOf[0],data:data2};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
var _valid0 = _errs7 === errors;
valid1 = valid1 || _valid0;
const _errs11 = errors;
if(typeof data2 !== "string"){
const err5 = {instancePath:instancePath+"/include_domains",schemaPath:"#/properties/include_domains/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.include_domains.anyOf[1].type,parentSchema:schema31.properties.include_domains.anyOf[1],data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
var _valid0 = _errs11 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err6 = {instancePath:instancePath+"/include_domains",schemaPath:"#/properties/include_domains/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.include_domains.anyOf,parentSchema:schema31.properties.include_domains,data:data2};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
else {
errors = _errs6;
if(vErrors !== null){
if(_errs6){
vErrors.length = _errs6;
}
else {
vErrors = null;
}
}
}
}
if(data.exclude_domains !== undefined){
let data4 = data.exclude_domains;
const _errs14 = errors;
let valid4 = false;
const _errs15 = errors;
if(Array.isArray(data4)){
const len1 = data4.length;
for(let i1=0; i1<len1; i1++){
let data5 = data4[i1];
if(typeof data5 !== "string"){
const err7 = {instancePath:instancePath+"/exclude_domains/" + i1,schemaPath:"#/properties/exclude_domains/anyOf/0/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.exclude_domains.anyOf[0].items.type,parentSchema:schema31.properties.exclude_domains.anyOf[0].items,data:data5};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath:instancePath+"/exclude_domains",schemaPath:"#/properties/exclude_domains/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.exclude_domains.anyOf[0].type,parentSchema:schema31.properties.exclude_domains.anyOf[0],data:data4};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
var _valid1 = _errs15 === errors;
valid4 = valid4 || _valid1;
const _errs19 = errors;
if(typeof data4 !== "string"){
const err9 = {instancePath:instancePath+"/exclude_domains",schemaPath:"#/properties/exclude_domains/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.exclude_domains.anyOf[1].type,parentSchema:schema31.properties.exclude_domains.anyOf[1],data:data4};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
var _valid1 = _errs19 === errors;
valid4 = valid4 || _valid1;
if(!valid4){
const err10 = {instancePath:instancePath+"/exclude_domains",schemaPath:"#/properties/exclude_domains/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.exclude_domains.anyOf,parentSchema:schema31.properties.exclude_domains,data:data4};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
else {
errors = _errs14;
if(vErrors !== null){
if(_errs14){
vErrors.length = _errs14;
}
else {
vErrors = null;
}
}
}
}
if(data.api_key !== undefined){
let data6 = data.api_key;
if(typeof data6 !== "string"){
const err11 = {instancePath:instancePath+"/api_key",schemaPath:"#/properties/api_key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.api_key.type,parentSchema:schema31.properties.api_key,data:data6};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.search_depth !== undefined){
let data7 = data.search_depth;
if(typeof data7 !== "string"){
const err12 = {instancePath:instancePath+"/search_depth",schemaPath:"#/properties/search_depth/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.search_depth.type,parentSchema:schema31.properties.search_depth,data:data7};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(!((data7 === "basic") || (data7 === "advanced"))){
const err13 = {instancePath:instancePath+"/search_depth",schemaPath:"#/properties/search_depth/enum",keyword:"enum",params:{allowedValues: schema31.properties.search_depth.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.search_depth.enum,parentSchema:schema31.properties.search_depth,data:data7};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.max_results !== undefined){
let data8 = data.max_results;
if((!((typeof data8 == "number") && (!(data8 % 1) && !isNaN(data8)))) && (typeof data8 !== "string")){
const err14 = {instancePath:instancePath+"/max_results",schemaPath:"#/properties/max_results/type",keyword:"type",params:{type: schema31.properties.max_results.type},message:"must be integer,string",schema:schema31.properties.max_results.type,parentSchema:schema31.properties.max_results,data:data8};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.days !== undefined){
let data9 = data.days;
if((!((typeof data9 == "number") && (!(data9 % 1) && !isNaN(data9)))) && (typeof data9 !== "string")){
const err15 = {instancePath:instancePath+"/days",schemaPath:"#/properties/days/type",keyword:"type",params:{type: schema31.properties.days.type},message:"must be integer,string",schema:schema31.properties.days.type,parentSchema:schema31.properties.days,data:data9};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.include_answer !== undefined){
let data10 = data.include_answer;
if(typeof data10 !== "boolean"){
const err16 = {instancePath:instancePath+"/include_answer",schemaPath:"#/properties/include_answer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.include_answer.type,parentSchema:schema31.properties.include_answer,data:data10};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.include_raw_content !== undefined){
let data11 = data.include_raw_content;
if(typeof data11 !== "boolean"){
const err17 = {instancePath:instancePath+"/include_raw_content",schemaPath:"#/properties/include_raw_content/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.include_raw_content.type,parentSchema:schema31.properties.include_raw_content,data:data11};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.include_images !== undefined){
let data12 = data.include_images;
if(typeof data12 !== "boolean"){
const err18 = {instancePath:instancePath+"/include_images",schemaPath:"#/properties/include_images/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.include_images.type,parentSchema:schema31.properties.include_images,data:data12};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data.include_image_descriptions !== undefined){
let data13 = data.include_image_descriptions;
if(typeof data13 !== "boolean"){
const err19 = {instancePath:instancePath+"/include_image_descriptions",schemaPath:"#/properties/include_image_descriptions/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.include_image_descriptions.type,parentSchema:schema31.properties.include_image_descriptions,data:data13};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"query":true,"topic":true,"include_domains":true,"exclude_domains":true,"api_key":true,"search_depth":true,"max_results":true,"days":true,"include_answer":true,"include_raw_content":true,"include_images":true,"include_image_descriptions":true},"dynamicProps":false,"dynamicItems":false};

